// The quotient H(x) = (A(x) B(x) - C(x)) / Z(x) of Groth16, Z(x) = x^n - 1,
// from the evaluations of A·z, B·z, C·z on H, in either convention of
// DESIGN.md §5, over the Fr of a curve C (deduced from the domain;
// instantiated in quotient.cpp for BLS12-381 and BN254).
#pragma once

#include <span>

#include "poly/domain.hpp"
#include "curves/dispatch.hpp"

namespace cuzk::poly {

enum class h_convention {
  /* bellman/bellperson/supraseal: the n - 1 coefficients of H, for an H query
     τ^i Z(τ)/δ. Any root family gives the same coefficients. */
  coefficients,
  /* snarkjs/rapidsnark: (A B - C)(ζ ω^i) on the odd coset ζH, ζ = ω_{2n};
     Z = ζ^n - 1 = -2 there is folded into snarkjs's hExps. Needs the domain
     of root_family::snarkjs for a .zkey's H query. */
  odd_coset,
};

/* a, b, c: evaluations on H (n each); a receives the result, b and c are
   clobbered.
   coefficients: iNTT a, b, c; coset NTT on gH, g = coset_generator() (7 on
                 BLS12-381, 5 on BN254); a b - c; times (g^n - 1)^-1; coset
                 iNTT. a[n-1] = 0 iff Z | AB - C.
   odd_coset:    iNTT a, b, c; coset NTT on ζH; a b - c. Needs k < s (a BN254
                 domain of 2^28 has no ζ). */
template <class C>
void compute_h(const basic_domain<C>& d, std::span<ff::fr<C>> a, std::span<ff::fr<C>> b, std::span<ff::fr<C>> c,
               h_convention conv);

#define CUZK_INSTANTIATE(C)                                                                          \
  extern template void compute_h(const basic_domain<C>&, std::span<ff::fr<C>>, std::span<ff::fr<C>>, \
                                 std::span<ff::fr<C>>, h_convention);
CUZK_CURVES(CUZK_INSTANTIATE)
#undef CUZK_INSTANTIATE

}  // namespace cuzk::poly
