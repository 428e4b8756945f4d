// Miller loop steps: G2 point T in homogeneous projective coordinates
// (X : Y : Z), x = X/Z, y = Y/Z on the twist E': y^2 = x^3 + b', and the
// line through it evaluated at P in G1.
//
// On an M-type twist (BLS12-381, b' = b xi), untwisted by
// (x, y) -> (x w^-2, y w^-3), the line of slope lambda through T, at
// P = (xP, yP), scaled by w^3 (an element of Fp4, which the final
// exponentiation sends to 1):
//   w^3 l(P) = (lambda xT - yT) - lambda xP w^2 + yP w^3,
// with w^2 = v and w^3 = v w: a sparse Fp12 value at positions 0, 1 and 4.
// On a D-type twist (BN254, b' = b / xi), untwisted by (x, y) -> (x w^2, y w^3),
// the slope on E is lambda w and
//   l(P) = yP - lambda xP w + (lambda xT - yT) w^3:
// the same three coefficients at positions 0, 3 and 4 (w^0, w^1, w^3).
// Formulas: Aranha, Karabina, Longa, Gebotys, Lopez, "Faster explicit
// formulas for computing pairings over ordinary curves", eprint 2010/526,
// section 4 (eqs. for doubling and mixed addition), with the M-type line.
#pragma once

#include "ec/config.hpp"
#include "ff/fp12.hpp"
#include "ff/fp2.hpp"

namespace cuzk::pairing::detail {

using ff::lazy::add;
using ff::lazy::dbl;
using ff::lazy::mul;
using ff::lazy::mul_by_nonresidue;
using ff::lazy::sqr;
using ff::lazy::sub;

template <class C>
struct g2_projective {
  ff::fp2<C> x, y, z;
};

/* the line's coefficients of 1, xP and yP, each scaled by an Fp2 factor */
template <class C>
struct line_coeffs {
  ff::fp2<C> l0, lx, ly;
};

/* a / 2 mod p: (aR)/2 is the Montgomery form of a/2; a + p stays below R */
template <class P>
inline ff::mont_field<P> half(const ff::mont_field<P>& a) {
  auto t = a.l;
  std::uint64_t carry = (t[0] & 1) ? ff::limbs::add(t, t, P::modulus) : 0;
  ff::limbs::shr1(t, carry);
  return ff::mont_field<P>::from_montgomery(t);
}
template <class C>
inline ff::fp2<C> half(const ff::fp2<C>& a) {
  return {half(a.c0), half(a.c1)};
}

/* 3 b' z: on BLS12-381 b' = 4 xi, so 12 xi z by additions; otherwise one
   product by the constant 3 b' */
template <class C>
inline ff::fp2<C> mul_by_3b(const ff::fp2<C>& z) {
  if constexpr (C::id == curves::curve_id::bls12_381) {
    ff::fp2<C> t = mul_by_nonresidue(z);  // xi z
    t = add(dbl(t), t);                   // 3 xi z
    return dbl(dbl(t));                   // 12 xi z
  } else {
    static const ff::fp2<C> three_b = [] {
      auto b = ec::g2_group<C>::b();
      return b + b + b;
    }();
    return mul(z, three_b);
  }
}

/* T = 2T, and the tangent line at T. Tangent slope 3 xT^2 / (2 yT); the line
   scaled by -2YZ is, using Y^2 Z = X^3 + b' Z^3,
     l0 = 3 b' Z^2 - Y^2,  lx = 3 X^2,  ly = -2 Y Z. */
template <class C>
inline line_coeffs<C> doubling_step(g2_projective<C>& t) {
  using fp2_t = ff::fp2<C>;
  fp2_t a = half(mul(t.x, t.y));                 // A = X Y / 2
  fp2_t b = sqr(t.y);                            // B = Y^2
  fp2_t c = sqr(t.z);                            // C = Z^2
  fp2_t e = mul_by_3b(c);                        // E = 3 b' C
  fp2_t f = add(dbl(e), e);                      // F = 3 E
  fp2_t g = half(add(b, f));                     // G = (B + F) / 2
  fp2_t h = sub(sqr(add(t.y, t.z)), add(b, c));  // H = (Y + Z)^2 - B - C = 2 Y Z
  fp2_t j = sqr(t.x);                            // J = X^2
  fp2_t e2 = sqr(e);
  t.x = mul(a, sub(b, f));                 // X3 = A (B - F)
  t.y = sub(sqr(g), add(dbl(e2), e2));     // Y3 = G^2 - 3 E^2
  t.z = mul(b, h);                         // Z3 = B H
  return {sub(e, b), add(dbl(j), j), -h};  // (E - B, 3 J, -H)
}

/* T = T + Q for Q affine, and the chord through T and Q. Slope
   theta / lambda with theta = Y - yQ Z, lambda = X - xQ Z; the line through Q
   scaled by lambda:
     l0 = theta xQ - lambda yQ,  lx = -theta,  ly = lambda. */
template <class C>
inline line_coeffs<C> addition_step(g2_projective<C>& t, const ec::g2_affine<C>& q) {
  using fp2_t = ff::fp2<C>;
  fp2_t theta = sub(t.y, mul(q.y, t.z));   // theta = Y - yQ Z
  fp2_t lambda = sub(t.x, mul(q.x, t.z));  // lambda = X - xQ Z
  fp2_t c = sqr(theta);                    // C = theta^2
  fp2_t d = sqr(lambda);                   // D = lambda^2
  fp2_t e = mul(lambda, d);                // E = lambda^3
  fp2_t f = mul(t.z, c);                   // F = Z C
  fp2_t g = mul(t.x, d);                   // G = X D
  fp2_t h = sub(add(e, f), dbl(g));        // H = E + F - 2 G
  fp2_t ey = mul(e, t.y);
  t.x = mul(lambda, h);                  // X3 = lambda H
  t.y = sub(mul(theta, sub(g, h)), ey);  // Y3 = theta (G - H) - E Y
  t.z = mul(t.z, e);                     // Z3 = Z E
  return {sub(mul(theta, q.x), mul(lambda, q.y)), -theta, lambda};
}

/* f * l(P) */
template <class C>
inline ff::fp12<C> mul_by_line(const ff::fp12<C>& f, const line_coeffs<C>& l, const ec::g1_affine<C>& p) {
  if constexpr (C::twist_type == curves::twist::m)
    return f.mul_by_014(l.l0, mul(l.lx, p.x), mul(l.ly, p.y));
  else
    return f.mul_by_034(mul(l.ly, p.y), mul(l.lx, p.x), l.l0);
}

}  // namespace cuzk::pairing::detail
