// The two groups of BLS12-381 and the aliases the rest of cuzk codes against.
//   G1: y^2 = x^3 + 4 over Fp,             order h1 r
//   G2: y^2 = x^3 + 4(1 + u) over Fp2,     order h2 r (the M-twist)
#pragma once

#include "ec/affine.hpp"
#include "ec/constants.hpp"
#include "ec/jacobian.hpp"
#include "ff/fp.hpp"
#include "ff/fp2.hpp"
#include "ff/fr.hpp"

namespace cuzk::ec {

struct g1_curve {
  using field_t = ff::fp_t;
  static constexpr const char* name = "G1";
  /* b = 4 */
  static field_t b() { return field_t::from_montgomery(consts::b_mont); }
  static const affine_point<field_t>& generator() {
    static const affine_point<field_t> g{field_t::from_canonical_unchecked(consts::g1_x),
                                         field_t::from_canonical_unchecked(consts::g1_y), false};
    return g;
  }
};

struct g2_curve {
  using field_t = ff::fp2_t;
  static constexpr const char* name = "G2";
  /* b' = 4 (1 + u) */
  static field_t b() {
    ff::fp_t four = ff::fp_t::from_montgomery(consts::b_mont);
    return {four, four};
  }
  static const affine_point<field_t>& generator() {
    using ff::fp_t;
    static const affine_point<field_t> g{
        {fp_t::from_canonical_unchecked(consts::g2_x0), fp_t::from_canonical_unchecked(consts::g2_x1)},
        {fp_t::from_canonical_unchecked(consts::g2_y0), fp_t::from_canonical_unchecked(consts::g2_y1)},
        false};
    return g;
  }
};

using fp_t = ff::fp_t;
using fp2_t = ff::fp2_t;
using fr_t = ff::fr_t;
using g1_jacobian_t = jacobian<g1_curve>;
using g2_jacobian_t = jacobian<g2_curve>;
// g1_affine_t and g2_affine_t are defined in ec/affine.hpp.

/* A scalar as a plain 256-bit integer, little-endian limbs. */
using scalar_limbs_t = ff::limbs::big<4>;

}  // namespace cuzk::ec
