// The optimal ate pairing of BLS12-381, e: G1 x G2 -> GT in Fp12.
//
// e(P, Q) = f_{x,Q}(P)^(3 (p^12 - 1) / r) with x = -0xd201000000010000: the
// Miller loop runs over |x| and conjugates at the end because x < 0; the
// final exponentiation's hard part is Hayashida-Hayasaka-Teruya's chain for
// 3 (p^4 - p^2 + 1) / r (eprint 2020/875). The factor 3 is the convention of
// zcash bls12_381, blst and @noble/curves, whose GT values these equal
// coefficient for coefficient; 3 is prime to r, so e is still bilinear and
// non-degenerate.
//
// Points must be on their curves and in the prime-order subgroups (the
// deserializers check that); the point at infinity contributes 1.
#pragma once

#include <span>
#include <utility>

#include "ec/affine.hpp"
#include "ff/fp12.hpp"

namespace cuzk::pairing {

using gt_t = ff::fp12_t;
using g1_g2_pair = std::pair<ec::g1_affine_t, ec::g2_affine_t>;

/* f_{x,Q}(P), before the final exponentiation */
ff::fp12_t miller_loop(const ec::g1_affine_t& p, const ec::g2_affine_t& q);
/* prod_i f_{x,Q_i}(P_i): one shared Fp12 squaring per step of the loop */
ff::fp12_t multi_miller_loop(std::span<const g1_g2_pair> pairs);

/* f^(3 (p^12 - 1) / r) */
ff::fp12_t final_exponentiation(const ff::fp12_t& f);

/* e(P, Q) */
gt_t pairing(const ec::g1_affine_t& p, const ec::g2_affine_t& q);
/* prod_i e(P_i, Q_i), with a single final exponentiation */
gt_t multi_pairing(std::span<const g1_g2_pair> pairs);

}  // namespace cuzk::pairing
