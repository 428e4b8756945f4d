// Two-adic roots of unity of Fr, the scalar field of a curve C. r - 1 = 2^s t
// (t odd), s = C::fr_params::two_adicity: 32 on BLS12-381, 28 on BN254. Fr
// holds a primitive 2^k-th root exactly for k <= s: x^(t 2^(s-k)) for a
// quadratic non-residue x. Which non-residue matters wherever evaluations are
// stored in domain order (snarkjs's H query), so the family is explicit.
//
// The families on each curve:
//   bellman  g^t = C::fr_params::root_of_unity, g = C::fr_params::generator,
//            the curve's own multiplicative generator:
//              BLS12-381  7^t (bellman, bellperson, supraseal, arkworks)
//              BN254      5^t (arkworks' ark-bn254, gnark-crypto's bn254/fr)
//   snarkjs  ffjavascript's Fr.w: Fr.w[s] = nqr^t, nqr the smallest quadratic
//            non-residue (counting up from 2), Fr.w[k] = Fr.w[k+1]^2; snarkjs
//            takes Fr.w[k] for a domain of 2^k, i.e. squares the 2^s-th root down:
//              BLS12-381  5^t, the 2^32-th root of ffjavascript's bls12381
//              BN254      5^t, the 2^28-th root of ffjavascript's bn128
// On BN254 the two families are the same roots (5 is both the generator and
// the smallest non-residue); on BLS12-381 they differ.
//
// The functions take the curve as their first template argument; left out, it
// is BLS12-381 (primitive_root(k, f) is BLS12-381's,
// primitive_root<curves::bn254>(k, f) BN254's). Instantiated in roots.cpp for
// both curves.
#pragma once

#include "curves/bls12_381.hpp"
#include "curves/bn254.hpp"
#include "ff/fr.hpp"
#include "curves/dispatch.hpp"

namespace cuzk::poly {

using ff::fr_t;

enum class root_family {
  bellman,  // the curve's fr_params::root_of_unity (7^t on BLS12-381, 5^t on BN254)
  snarkjs,  // ffjavascript's Fr.w: 5^t on both curves, 5 the smallest quadratic non-residue
};

/* s: the largest k with a 2^k-th root of unity in C's Fr, the largest NTT domain */
template <class C>
inline constexpr unsigned max_log_size_of = C::fr_params::two_adicity;
inline constexpr unsigned max_log_size = max_log_size_of<curves::bls12_381>;  // 32 (BN254: 28)

/* the quadratic non-residue x of the family: the generator (7 on BLS12-381,
   5 on BN254) or the smallest non-residue (5 on both) */
template <class C = curves::bls12_381>
ff::fr<C> root_base(root_family f);
/* x^t: a primitive 2^s-th root of unity */
template <class C = curves::bls12_381>
ff::fr<C> two_adic_root(root_family f);
/* (x^t)^(2^(s-k)): a primitive 2^k-th root, k <= s (std::invalid_argument beyond) */
template <class C = curves::bls12_381>
ff::fr<C> primitive_root(unsigned log_order, root_family f);

#define CUZK_INSTANTIATE(C)                                \
  extern template ff::fr<C> root_base<C>(root_family);     \
  extern template ff::fr<C> two_adic_root<C>(root_family); \
  extern template ff::fr<C> primitive_root<C>(unsigned, root_family);
CUZK_CURVES(CUZK_INSTANTIATE)
#undef CUZK_INSTANTIATE

}  // namespace cuzk::poly
