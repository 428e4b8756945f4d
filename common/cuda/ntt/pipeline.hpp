// The pass lists of the public operations (ntt.hpp), over whatever memory the
// pointers name: the device launches them, the tests' emulator runs them on
// the host with host copies of the tables.
#pragma once

#include <optional>
#include <vector>

#include "cuda/ntt/plan.hpp"
#include "curves/bls12_381.hpp"
#include "curves/bn254.hpp"
#include "ff/fr.hpp"
#include "poly/quotient.hpp"

namespace cuzk::cuda::ntt::detail {

/* One transform. natural_in: DIF, natural to bit-reversed; else DIT, bit-reversed
   to natural. pre and post multiply element j of the transform's input and
   output (its index, whatever the order) by f(j). */
struct transform_spec {
  unsigned log_n;
  const void* tw;
  bool inverse;
  bool natural_in;
  std::optional<factor_fn> pre, post;
};
void append_transform(std::vector<pass>& out, const transform_spec& t, const void* src, void* dst);

/* f(j) = c g^j, over the Fr of a curve C */
template <class C>
struct power_key {
  ff::fr<C> g, c;
};

/* The factors of compute_h (DESIGN §5; poly::compute_h), R = 2^256 the Montgomery radix:
     to_coset      n^-1 g^j          after the iNTT of b (coefficients: of a, b, c)
     to_coset_rinv n^-1 R^-1 g^j     odd_coset, of a and c: a·b − c then holds (AB − C) R^-1,
                                     whose Montgomery limbs are the canonical AB − C
     from_coset    n^-1 z^-1 R^-1 g^-j  coefficients: the coset iNTT's output, canonical */
template <class C>
struct h_keys {
  power_key<C> to_coset, to_coset_rinv, from_coset;
};
template <class C>
h_keys<C> compute_h_keys(poly::h_convention conv, unsigned log_n, const ff::fr<C>& shift, const ff::fr<C>& z_inv);

struct h_spec {
  poly::h_convention convention;
  unsigned log_n;
  const void* tw;
  factor_fn to_coset, to_coset_rinv, from_coset;  // the tables of h_keys
};

/* a, b, c (n each, natural order) are only read. scratch: 2n elements. out: n elements,
   canonical scalars, natural order (odd_coset) or bit-reversed (coefficients). */
void append_compute_h(std::vector<pass>& out, const h_spec& h, const void* a, const void* b, const void* c,
                      void* result, void* scratch);

/* the index of the first pass that reads p (its source, or a·b − x's a or b), passes.size() if none */
std::size_t first_reader(const std::vector<pass>& passes, const void* p);

}  // namespace cuzk::cuda::ntt::detail
