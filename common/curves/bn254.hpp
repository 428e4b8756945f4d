// BN254 (alt_bn128; snarkjs's "bn128", circom's default prime) as a curve
// type, for the generic ff, ec and pairing code (values in bn254_constants.hpp).
//   x = 4965661367192848881, p = 36x^4 + 36x^3 + 24x^2 + 6x + 1,
//   r = 36x^4 + 36x^3 + 18x^2 + 6x + 1
//   G1: y^2 = x^3 + 3 over Fp (cofactor 1)
//   G2: y^2 = x^3 + 3 / xi over Fp2, xi = 9 + u (the D-type twist)
#pragma once

#include "curves/bn254_constants.hpp"
#include "curves/curve_id.hpp"

namespace cuzk::curves {

struct bn254 {
  static constexpr curve_id id = curve_id::bn254;
  static constexpr family fam = family::bn;
  static constexpr twist twist_type = twist::d;
  using fp_params = bn254_consts::fp_params;
  using fr_params = bn254_consts::fr_params;
  static constexpr std::uint64_t x_abs = bn254_consts::x;
  static constexpr bool x_negative = false;
  static constexpr unsigned xi_c0 = 9;
  static constexpr const auto& frobenius_gamma = bn254_consts::frobenius_gamma;
  static constexpr const auto& ate_loop_naf = bn254_consts::ate_loop_naf;
  static constexpr const auto& g1_b_mont = bn254_consts::b_mont;
  static constexpr const auto& g2_b_c0_mont = bn254_consts::b2_c0_mont;
  static constexpr const auto& g2_b_c1_mont = bn254_consts::b2_c1_mont;
  static constexpr const auto& g1_x = bn254_consts::g1_x;
  static constexpr const auto& g1_y = bn254_consts::g1_y;
  static constexpr const auto& g2_x0 = bn254_consts::g2_x0;
  static constexpr const auto& g2_x1 = bn254_consts::g2_x1;
  static constexpr const auto& g2_y0 = bn254_consts::g2_y0;
  static constexpr const auto& g2_y1 = bn254_consts::g2_y1;
  static constexpr const auto& g2_cofactor = bn254_consts::h2;
};

}  // namespace cuzk::curves
