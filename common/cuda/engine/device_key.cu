#include "cuda/engine/device_key.hpp"

namespace cuzk::cuda {

device_key::device_key(const groth16::proving_key& pk, cudaStream_t s)
    : a(pk.a, s), b1(pk.b1, s), c(pk.c, s), h(pk.h_query, s), b2(pk.b2, s),
      pk_(&pk), n_vars_(pk.n_vars), domain_size_(pk.domain_size), delta1_(pk.delta1) {}

bool device_key::holds(const groth16::proving_key& pk) const {
  return &pk == pk_ && pk.n_vars == n_vars_ && pk.domain_size == domain_size_ && pk.delta1 == delta1_;
}

}  // namespace cuzk::cuda
