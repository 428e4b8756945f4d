// The final exponentiation f -> f^(c (p^12 - 1) / r), split as
//   (p^12 - 1) / r = (p^6 - 1) (p^2 + 1) (p^4 - p^2 + 1) / r,
// with the curve family's chain for c (p^4 - p^2 + 1) / r (checked in
// scripts/gen-tower-constants.py).
#include "ff/fp12_cyclotomic.hpp"
#include "pairing/pairing.hpp"
#include "curves/dispatch.hpp"

namespace cuzk::pairing {

namespace {

/* a^x for a in the cyclotomic subgroup, where a^-1 = conj(a) */
template <class C>
ff::fp12<C> exp_by_x(const ff::fp12<C>& a) {
  auto r = ff::cyclotomic_exp(a, C::x_abs);
  return C::x_negative ? r.conjugate() : r;
}

/* BLS12, Hayashida-Hayasaka-Teruya (eprint 2020/875):
     3 (p^4 - p^2 + 1) / r = (x - 1)^2 (x + p) (x^2 + p^2 - 1) + 3 */
template <class C>
ff::fp12<C> hard_part_bls12(const ff::fp12<C>& m) {
  auto a = exp_by_x(m) * m.conjugate();                            // m^(x - 1)
  a = exp_by_x(a) * a.conjugate();                                 // m^((x - 1)^2)
  a = exp_by_x(a) * a.frobenius_map(1);                            // ^(x + p)
  a = exp_by_x(exp_by_x(a)) * a.frobenius_map(2) * a.conjugate();  // ^(x^2 + p^2 - 1)
  return a * ff::cyclotomic_sqr(m) * m;                            // * m^3
}

/* BN, Fuentes-Castaneda, Knapp, Rodriguez-Henriquez (SAC 2011, section 5):
     m (p^4 - p^2 + 1) / r = l0 + l1 p + l2 p^2 + l3 p^3, m = 2x (6x^2 + 3x + 1),
     l0 = 12x^3 + 12x^2 + 6x + 1,  l1 = 12x^3 + 6x^2 + 4x,
     l2 = 12x^3 + 6x^2 + 6x,       l3 = 12x^3 + 6x^2 + 4x - 1,
   from a^(-x) (x > 0), cyclotomic squarings and Frobenius maps. */
template <class C>
ff::fp12<C> hard_part_bn(const ff::fp12<C>& a) {
  auto pow_minus_x = [](const ff::fp12<C>& b) { return exp_by_x(b).conjugate(); };
  auto y1 = ff::cyclotomic_sqr(pow_minus_x(a));    // a^(-2x)
  auto y2 = ff::cyclotomic_sqr(y1) * y1;           // a^(-6x)
  auto y4 = pow_minus_x(y2);                       // a^(6x^2)
  auto y6 = pow_minus_x(ff::cyclotomic_sqr(y4));   // a^(-12x^3)
  auto y8 = y6.conjugate() * y4 * y2.conjugate();  // a^(12x^3 + 6x^2 + 6x) = a^l2
  auto y9 = y8 * y1;                               // a^(12x^3 + 6x^2 + 4x) = a^l1
  return (a.conjugate() * y9).frobenius_map(3)     // a^(l3 p^3)
         * y8.frobenius_map(2)                     // a^(l2 p^2)
         * y9.frobenius_map(1)                     // a^(l1 p)
         * (y8 * y4 * a);                          // a^l0
}

}  // namespace

template <class C>
ff::fp12<C> final_exponentiation(const ff::fp12<C>& f) {
  /* easy part: m = f^((p^6 - 1)(p^2 + 1)); m lies in G_phi6(p^2) */
  ff::fp12<C> m = f.conjugate() * f.inverse();  // f^(p^6 - 1)
  m = m.frobenius_map(2) * m;                   // ^(p^2 + 1)
  if constexpr (C::fam == curves::family::bls12)
    return hard_part_bls12(m);
  else
    return hard_part_bn(m);
}

#define CUZK_INSTANTIATE(C) template ff::fp12<C> final_exponentiation(const ff::fp12<C>&);
CUZK_CURVES(CUZK_INSTANTIATE)
#undef CUZK_INSTANTIATE

}  // namespace cuzk::pairing
