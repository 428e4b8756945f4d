// Miller loop steps: G2 point T in homogeneous projective coordinates
// (X : Y : Z), x = X/Z, y = Y/Z on the twist E': y^2 = x^3 + b', b' = 4 xi,
// and the line through it evaluated at P in G1.
//
// E' is an M-type sextic twist, untwisted by (x, y) -> (x w^-2, y w^-3). The
// line of slope lambda through T, at P = (xP, yP), scaled by w^3 (an element
// of Fp4, which the final exponentiation sends to 1):
//   w^3 l(P) = (lambda xT - yT) - lambda xP w^2 + yP w^3,
// with w^2 = v and w^3 = v w: a sparse Fp12 value at positions 0, 1 and 4.
// Formulas: Aranha, Karabina, Longa, Gebotys, Lopez, "Faster explicit
// formulas for computing pairings over ordinary curves", eprint 2010/526,
// section 4 (eqs. for doubling and mixed addition), with the M-type line.
#pragma once

#include "ec/affine.hpp"
#include "ff/fp12.hpp"
#include "ff/fp2_wide.hpp"

namespace cuzk::pairing::detail {

using ff::fp12_t;
using ff::fp2_t;
using ff::fp_t;
using ff::lazy::add;
using ff::lazy::dbl;
using ff::lazy::mul;
using ff::lazy::mul_by_nonresidue;
using ff::lazy::sqr;
using ff::lazy::sub;

struct g2_projective {
  fp2_t x, y, z;
};

/* l = l0 + (lx xP) v + (ly yP) v w, each line scaled by an Fp2 factor */
struct line_coeffs {
  fp2_t l0, lx, ly;
};

/* a / 2 mod p: (aR)/2 is the Montgomery form of a/2; a + p stays below 2^384 */
inline fp_t half(const fp_t& a) {
  auto t = a.l;
  std::uint64_t carry = (t[0] & 1) ? ff::limbs::add(t, t, ff::fp_params::modulus) : 0;
  ff::limbs::shr1(t, carry);
  return fp_t::from_montgomery(t);
}
inline fp2_t half(const fp2_t& a) { return {half(a.c0), half(a.c1)}; }

/* 3 b' z = 12 xi z */
inline fp2_t mul_by_3b(const fp2_t& z) {
  fp2_t t = mul_by_nonresidue(z);  // xi z
  t = add(dbl(t), t);              // 3 xi z
  return dbl(dbl(t));              // 12 xi z
}

/* T = 2T, and the tangent line at T. Tangent slope 3 xT^2 / (2 yT); the line
   scaled by -2YZ is, using Y^2 Z = X^3 + b' Z^3,
     l0 = 3 b' Z^2 - Y^2,  lx = 3 X^2,  ly = -2 Y Z. */
inline line_coeffs doubling_step(g2_projective& t) {
  fp2_t a = half(mul(t.x, t.y));                // A = X Y / 2
  fp2_t b = sqr(t.y);                           // B = Y^2
  fp2_t c = sqr(t.z);                           // C = Z^2
  fp2_t e = mul_by_3b(c);                       // E = 3 b' C
  fp2_t f = add(dbl(e), e);                     // F = 3 E
  fp2_t g = half(add(b, f));                    // G = (B + F) / 2
  fp2_t h = sub(sqr(add(t.y, t.z)), add(b, c)); // H = (Y + Z)^2 - B - C = 2 Y Z
  fp2_t j = sqr(t.x);                           // J = X^2
  fp2_t e2 = sqr(e);
  t.x = mul(a, sub(b, f));                      // X3 = A (B - F)
  t.y = sub(sqr(g), add(dbl(e2), e2));          // Y3 = G^2 - 3 E^2
  t.z = mul(b, h);                              // Z3 = B H
  return {sub(e, b), add(dbl(j), j), -h};       // (E - B, 3 J, -H)
}

/* T = T + Q for Q affine, and the chord through T and Q. Slope
   theta / lambda with theta = Y - yQ Z, lambda = X - xQ Z; the line through Q
   scaled by lambda:
     l0 = theta xQ - lambda yQ,  lx = -theta,  ly = lambda. */
inline line_coeffs addition_step(g2_projective& t, const ec::g2_affine_t& q) {
  fp2_t theta = sub(t.y, mul(q.y, t.z));        // theta = Y - yQ Z
  fp2_t lambda = sub(t.x, mul(q.x, t.z));       // lambda = X - xQ Z
  fp2_t c = sqr(theta);                         // C = theta^2
  fp2_t d = sqr(lambda);                        // D = lambda^2
  fp2_t e = mul(lambda, d);                     // E = lambda^3
  fp2_t f = mul(t.z, c);                        // F = Z C
  fp2_t g = mul(t.x, d);                        // G = X D
  fp2_t h = sub(add(e, f), dbl(g));             // H = E + F - 2 G
  fp2_t ey = mul(e, t.y);
  t.x = mul(lambda, h);                         // X3 = lambda H
  t.y = sub(mul(theta, sub(g, h)), ey);         // Y3 = theta (G - H) - E Y
  t.z = mul(t.z, e);                            // Z3 = Z E
  return {sub(mul(theta, q.x), mul(lambda, q.y)), -theta, lambda};
}

/* f * l(P) */
inline fp12_t mul_by_line(const fp12_t& f, const line_coeffs& l, const ec::g1_affine_t& p) {
  return f.mul_by_014(l.l0, mul(l.lx, p.x), mul(l.ly, p.y));
}

}  // namespace cuzk::pairing::detail
