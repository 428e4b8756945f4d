// The efficiently computable endomorphisms of BLS12-381 that speed up scalar
// multiplication (GLV on G1, GLS on G2) and subgroup checks (eprint 2021/1130).
#pragma once

#include "ec/config.hpp"

namespace cuzk::ec {

/* phi(x, y) = (beta x, y), beta^3 = 1: acts on G1 as [-x^2] (a root of
   lambda^2 + lambda + 1 = 0 mod r). In Jacobian form X/Z^2 scales the same way. */
inline g1_affine_t phi(const g1_affine_t& p) {
  if (p.infinity) return p;
  return {p.x * fp_t::from_montgomery(consts::beta_mont), p.y, false};
}
inline g1_jacobian_t phi(const g1_jacobian_t& p) {
  return {p.X * fp_t::from_montgomery(consts::beta_mont), p.Y, p.Z};
}

namespace detail {
inline fp2_t psi_cx() { return {fp_t::zero(), fp_t::from_montgomery(consts::psi_cx1_mont)}; }
inline fp2_t psi_cy() {
  return {fp_t::from_montgomery(consts::psi_cy0_mont), fp_t::from_montgomery(consts::psi_cy1_mont)};
}
/* conj(a) (c u) = (a0 - a1 u) c u = a1 c + a0 c u: the x coefficient is pure
   imaginary, so this costs two Fp multiplications */
inline fp2_t conj_times_cx(const fp2_t& a) {
  fp_t c = fp_t::from_montgomery(consts::psi_cx1_mont);
  return {a.c1 * c, a.c0 * c};
}
}  // namespace detail

/* psi(x, y) = (conj(x) / (1 + u)^((p-1)/3), conj(y) / (1 + u)^((p-1)/2)):
   untwist, p-power Frobenius, twist. Acts on G2 as [p] = [x]. */
inline g2_affine_t psi(const g2_affine_t& p) {
  if (p.infinity) return p;
  return {detail::conj_times_cx(p.x), p.y.conjugate() * detail::psi_cy(), false};
}
/* Jacobian: Frobenius is a field automorphism, so conj(X)/conj(Z)^2 = conj(x) */
inline g2_jacobian_t psi(const g2_jacobian_t& p) {
  return {detail::conj_times_cx(p.X), p.Y.conjugate() * detail::psi_cy(), p.Z.conjugate()};
}

}  // namespace cuzk::ec
