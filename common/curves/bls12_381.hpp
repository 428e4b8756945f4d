// BLS12-381 as a curve type: what the generic ff, ec and pairing code needs
// to instantiate for it (the values live in bls12_381_field_constants.hpp,
// bls12_381_tower_constants.hpp and bls12_381_curve_constants.hpp).
#pragma once

#include "curves/curve_id.hpp"
#include "curves/bls12_381_curve_constants.hpp"
#include "curves/bls12_381_field_constants.hpp"
#include "curves/bls12_381_tower_constants.hpp"

namespace cuzk::curves {

struct bls12_381 {
  static constexpr curve_id id = curve_id::bls12_381;
  static constexpr family fam = family::bls12;
  static constexpr twist twist_type = twist::m;
  using fp_params = ff::fp_params;
  using fr_params = ff::fr_params;
  /* the curve parameter x = -0xd201000000010000 */
  static constexpr std::uint64_t x_abs = ec::consts::x_abs;
  static constexpr bool x_negative = true;
  /* xi = 1 + u, the non-residue of Fp6 = Fp2[v] / (v^3 - xi) */
  static constexpr unsigned xi_c0 = 1;
  static constexpr const auto& frobenius_gamma = ff::tower::frobenius_gamma;
  /* G1: y^2 = x^3 + 4; G2: y^2 = x^3 + 4 (1 + u) */
  static constexpr const auto& g1_b_mont = ec::consts::b_mont;
  static constexpr const auto& g2_b_c0_mont = ec::consts::b_mont;
  static constexpr const auto& g2_b_c1_mont = ec::consts::b_mont;
  static constexpr const auto& g1_x = ec::consts::g1_x;
  static constexpr const auto& g1_y = ec::consts::g1_y;
  static constexpr const auto& g2_x0 = ec::consts::g2_x0;
  static constexpr const auto& g2_x1 = ec::consts::g2_x1;
  static constexpr const auto& g2_y0 = ec::consts::g2_y0;
  static constexpr const auto& g2_y1 = ec::consts::g2_y1;
};

}  // namespace cuzk::curves
