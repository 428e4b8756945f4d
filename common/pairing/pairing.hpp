// The optimal ate pairing e: G1 x G2 -> GT in Fp12 of a curve C.
//
// BLS12-381: e(P, Q) = f_{x,Q}(P)^(3 (p^12 - 1) / r), x = -0xd201000000010000;
// the Miller loop runs over |x| and conjugates at the end because x < 0; the
// hard part is Hayashida-Hayasaka-Teruya's chain for 3 (p^4 - p^2 + 1) / r
// (eprint 2020/875). The factor 3 is the convention of zcash bls12_381, blst
// and @noble/curves.
// BN254: e(P, Q) = (f_{6x+2,Q}(P) l_{T,pi(Q)}(P) l_{T',-pi^2(Q)}(P))^(m (p^12 - 1) / r),
// x = 4965661367192848881, m = 2x (6x^2 + 3x + 1): the hard part is
// Fuentes-Castaneda, Knapp and Rodriguez-Henriquez's chain ("Faster hashing to
// G2", SAC 2011), the convention of arkworks, gnark and @noble/curves.
// m and 3 are prime to r, so e stays bilinear and non-degenerate, and the GT
// values equal those libraries' coefficient for coefficient.
//
// Points must be on their curves and in the prime-order subgroups (the
// deserializers check that); the point at infinity contributes 1.
#pragma once

#include <span>
#include <utility>

#include "curves/bn254.hpp"
#include "ec/config.hpp"
#include "ff/fp12.hpp"
#include "curves/dispatch.hpp"

namespace cuzk::pairing {

template <class C>
using gt = ff::fp12<C>;
template <class C>
using g1_g2_pair_of = std::pair<ec::g1_affine<C>, ec::g2_affine<C>>;
using gt_t = gt<curves::bls12_381>;
using g1_g2_pair = g1_g2_pair_of<curves::bls12_381>;

/* prod_i f_{Q_i}(P_i) before the final exponentiation: one shared Fp12
   squaring per step of the loop */
template <class C>
ff::fp12<C> multi_miller_loop(std::span<const g1_g2_pair_of<C>> pairs);
/* f^(3 (p^12 - 1) / r) on BLS12-381, f^(m (p^12 - 1) / r) on BN254 */
template <class C>
ff::fp12<C> final_exponentiation(const ff::fp12<C>& f);

template <class C>
ff::fp12<C> miller_loop(const ec::g1_affine<C>& p, const ec::g2_affine<C>& q) {
  g1_g2_pair_of<C> pq{p, q};
  return multi_miller_loop<C>({&pq, 1});
}
/* e(P, Q) */
template <class C>
gt<C> pairing(const ec::g1_affine<C>& p, const ec::g2_affine<C>& q) {
  return final_exponentiation(miller_loop(p, q));
}
/* prod_i e(P_i, Q_i), with a single final exponentiation */
template <class C>
gt<C> multi_pairing(std::span<const g1_g2_pair_of<C>> pairs) {
  return final_exponentiation(multi_miller_loop<C>(pairs));
}

#define CUZK_INSTANTIATE(C)                                                         \
  extern template ff::fp12<C> multi_miller_loop(std::span<const g1_g2_pair_of<C>>); \
  extern template ff::fp12<C> final_exponentiation(const ff::fp12<C>&);
CUZK_CURVES(CUZK_INSTANTIATE)
#undef CUZK_INSTANTIATE

}  // namespace cuzk::pairing
