// Efficiently computable endomorphisms: phi on BLS12-381's G1 (GLV scalar
// multiplication, the G1 subgroup check) and psi on G2 of either curve (GLS,
// the G2 subgroup checks; eprint 2021/1130, 2022/352).
#pragma once

#include "ec/config.hpp"
#include "ff/fp6.hpp"

namespace cuzk::ec {

/* phi(x, y) = (beta x, y), beta^3 = 1: acts on BLS12-381's G1 as [-x^2] (a
   root of lambda^2 + lambda + 1 = 0 mod r). In Jacobian form X/Z^2 scales the
   same way. */
inline g1_affine_t phi(const g1_affine_t& p) {
  if (p.infinity) return p;
  return {p.x * fp_t::from_montgomery(consts::beta_mont), p.y, false};
}
inline g1_jacobian_t phi(const g1_jacobian_t& p) { return {p.X * fp_t::from_montgomery(consts::beta_mont), p.Y, p.Z}; }

namespace detail {
/* psi(x, y) = (conj(x) cx, conj(y) cy): untwist, p-power Frobenius, twist.
   With gamma(1, j) = xi^(j (p - 1) / 6): on an M-twist cx = 1 / gamma(1, 2),
   cy = 1 / gamma(1, 3); on a D-twist cx = gamma(1, 2), cy = gamma(1, 3). */
template <class C>
struct psi_coefficients {
  ff::fp2<C> cx, cy;
  static const psi_coefficients& get() {
    static const psi_coefficients c = [] {
      auto g2 = ff::tower::gamma<C>(1, 2), g3 = ff::tower::gamma<C>(1, 3);
      if constexpr (C::twist_type == curves::twist::m)
        return psi_coefficients{g2.inverse(), g3.inverse()};
      else
        return psi_coefficients{g2, g3};
    }();
    return c;
  }
};
/* conj(a) cx; when cx = c u is pure imaginary (BLS12-381),
   conj(a) c u = a1 c + a0 c u costs two Fp products */
template <class C>
inline ff::fp2<C> conj_times_cx(const ff::fp2<C>& a) {
  const auto& cx = psi_coefficients<C>::get().cx;
  if (cx.c0.is_zero()) return {a.c1 * cx.c1, a.c0 * cx.c1};
  return a.conjugate() * cx;
}
}  // namespace detail

/* psi acts on G2 as [p], which is [x] on BLS12-381 and [6x^2] on BN254
   modulo r. */
template <class C>
inline g2_affine<C> psi(const g2_affine<C>& p) {
  if (p.infinity) return p;
  return {detail::conj_times_cx(p.x), p.y.conjugate() * detail::psi_coefficients<C>::get().cy, false};
}
/* Jacobian: Frobenius is a field automorphism, so conj(X)/conj(Z)^2 = conj(x) */
template <class C>
inline g2_jacobian<C> psi(const jacobian<g2_group<C>>& p) {
  return {detail::conj_times_cx(p.X), p.Y.conjugate() * detail::psi_coefficients<C>::get().cy, p.Z.conjugate()};
}

}  // namespace cuzk::ec
