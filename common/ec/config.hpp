// The two groups of a curve C and the aliases the rest of cuzk codes against.
//   G1: y^2 = x^3 + b over Fp,   order h1 r
//   G2: y^2 = x^3 + b' over Fp2, order h2 r (b' = b xi on an M-twist,
//       b / xi on a D-twist)
// BLS12-381: b = 4, b' = 4 (1 + u) (M); BN254: b = 3, b' = 3 / (9 + u) (D).
#pragma once

#include "curves/bls12_381.hpp"
#include "ec/affine.hpp"
#include "ec/jacobian.hpp"
#include "ff/fp.hpp"
#include "ff/fp2.hpp"
#include "ff/fr.hpp"

namespace cuzk::ec {

template <class C>
struct g1_group {
  using curve = C;
  using field_t = ff::fp<C>;
  static constexpr const char* name = "G1";
  static field_t b() { return field_t::from_montgomery(C::g1_b_mont); }
  static const affine_point<field_t>& generator() {
    static const affine_point<field_t> g{field_t::from_canonical_unchecked(C::g1_x),
                                         field_t::from_canonical_unchecked(C::g1_y), false};
    return g;
  }
};

template <class C>
struct g2_group {
  using curve = C;
  using field_t = ff::fp2<C>;
  static constexpr const char* name = "G2";
  static field_t b() {
    using F = ff::fp<C>;
    return {F::from_montgomery(C::g2_b_c0_mont), F::from_montgomery(C::g2_b_c1_mont)};
  }
  static const affine_point<field_t>& generator() {
    using F = ff::fp<C>;
    static const affine_point<field_t> g{{F::from_canonical_unchecked(C::g2_x0), F::from_canonical_unchecked(C::g2_x1)},
                                         {F::from_canonical_unchecked(C::g2_y0), F::from_canonical_unchecked(C::g2_y1)},
                                         false};
    return g;
  }
};

template <class C>
using g1_affine = affine_point<ff::fp<C>>;
template <class C>
using g2_affine = affine_point<ff::fp2<C>>;
template <class C>
using g1_jacobian = jacobian<g1_group<C>>;
template <class C>
using g2_jacobian = jacobian<g2_group<C>>;

using g1_curve = g1_group<curves::bls12_381>;
using g2_curve = g2_group<curves::bls12_381>;
using fp_t = ff::fp_t;
using fp2_t = ff::fp2_t;
using fr_t = ff::fr_t;
using g1_jacobian_t = jacobian<g1_curve>;
using g2_jacobian_t = jacobian<g2_curve>;
// g1_affine_t and g2_affine_t are defined in ec/affine.hpp.

/* A scalar as a plain 256-bit integer, little-endian limbs (both curves' r
   are below 2^256). */
using scalar_limbs_t = ff::limbs::big<4>;

}  // namespace cuzk::ec
