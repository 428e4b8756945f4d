// A parsed proving key's shape, for the sizing arithmetic (device_memory.hpp).
#pragma once

#include "groth16/keys.hpp"
#include "sizing/device_memory.hpp"

namespace cuzk::sizing {

/* its curve and its bases per query, decoded or mapped */
template <class C>
key_dims dims_of(const groth16::basic_proving_key<C>& pk) {
  key_dims k;
  k.curve = C::id;
  k.n_vars = pk.n_vars;
  k.domain = pk.domain_size;
  k.a = pk.a_count();
  k.b1 = pk.b1_count();
  k.b2 = pk.b2_count();
  k.c = pk.c_count();
  k.h = pk.h_count();
  return k;
}

}  // namespace cuzk::sizing
