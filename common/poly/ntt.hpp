// Number-theoretic transforms over the Fr of a curve C on a domain H = <ω> of
// size n = 2^k: in place, natural order in and out, parallel in the calling
// thread's TBB arena (see poly/threads.hpp to bound the thread count). C is
// deduced from the domain (poly::domain for BLS12-381,
// basic_domain<curves::bn254> for BN254) alone: ff::fr<C> names C only
// through C::fr_params, which is not deduced, so vectors and arrays convert to
// the spans. Instantiated in ntt.cpp for both curves.
#pragma once

#include <span>

#include "poly/domain.hpp"

namespace cuzk::poly {

/* coefficients -> evaluations:  A_i = Σ_j a_j ω^(ij) */
template <class C>
void ntt(const basic_domain<C>& d, std::span<ff::fr<C>> a);

/* evaluations -> coefficients:  a_j = n^-1 Σ_i A_i ω^(-ij) */
template <class C>
void intt(const basic_domain<C>& d, std::span<ff::fr<C>> a);

/* coefficients -> evaluations on the coset gH:  A_i = Σ_j a_j (g ω^i)^j,
   i.e. a_j <- a_j g^j, then ntt. g = basic_domain<C>::coset_generator() is
   bellman's coset, g = d.odd_coset_shift() snarkjs's. */
template <class C>
void coset_ntt(const basic_domain<C>& d, std::span<ff::fr<C>> a, const ff::fr<C>& g);

/* evaluations on gH -> coefficients: intt, then a_j <- a_j g^-j */
template <class C>
void coset_intt(const basic_domain<C>& d, std::span<ff::fr<C>> a, const ff::fr<C>& g);

#define CUZK_POLY_NTT(C)                                                                          \
  extern template void ntt(const basic_domain<C>&, std::span<ff::fr<C>>);                         \
  extern template void intt(const basic_domain<C>&, std::span<ff::fr<C>>);                        \
  extern template void coset_ntt(const basic_domain<C>&, std::span<ff::fr<C>>, const ff::fr<C>&); \
  extern template void coset_intt(const basic_domain<C>&, std::span<ff::fr<C>>, const ff::fr<C>&);
CUZK_POLY_NTT(curves::bls12_381)
CUZK_POLY_NTT(curves::bn254)
#undef CUZK_POLY_NTT

}  // namespace cuzk::poly
