// Affine points on the device: x, y only. The point at infinity is x = y = 0,
// which is not on y^2 = x^3 + b (b != 0), so no flag is needed.
#pragma once

#include "cuda/ff/carry_chain.cuh"

namespace cuzk::cuda {

template <class F>
struct affine {
  using field_t = F;
  F x, y;

  CUZK_HDI static affine infinity() { return {F::zero(), F::zero()}; }
  CUZK_HDI bool is_infinity() const { return x.is_zero() && y.is_zero(); }
  CUZK_HDI affine operator-() const { return {x, -y}; }  // -(0, 0) = (0, 0)
  CUZK_HDI friend bool operator==(const affine& p, const affine& q) { return p.x == q.x && p.y == q.y; }
};

/* Affine addition with the inversion done elsewhere, for batch-affine sums
   (Montgomery's trick shares one inversion among many denominators):
     chord    lambda = (y2 - y1) / (x2 - x1)
     tangent  lambda = 3 x1^2 / (2 y1)            (a = 0)
     x3 = lambda^2 - x1 - x2,  y3 = lambda (x1 - x3) - y1
   (Hankerson, Menezes, Vanstone, "Guide to Elliptic Curve Cryptography", §3.1.2).
   The denominator is one where no inversion is needed (an operand at
   infinity, or P = -Q), so a batch never inverts zero. */
template <class F>
CUZK_HDI F add_denominator(const affine<F>& p, const affine<F>& q) {
  if (p.is_infinity() || q.is_infinity()) return F::one();
  if (p.x == q.x) return p.y == q.y && !p.y.is_zero() ? p.y.dbl() : F::one();  // tangent, or P = -Q
  return q.x - p.x;
}

/* p + q given inv = 1 / add_denominator(p, q) */
template <class F>
CUZK_HDI affine<F> add_with_inverse(const affine<F>& p, const affine<F>& q, const F& inv) {
  if (p.is_infinity()) return q;
  if (q.is_infinity()) return p;
  F lambda;
  if (p.x == q.x) {
    if (!(p.y == q.y) || p.y.is_zero()) return affine<F>::infinity();  // P = -Q
    const F xx = p.x.sqr();
    lambda = (xx.dbl() + xx) * inv; /* lambda = 3 x1^2 / (2 y1) */
  } else {
    lambda = (q.y - p.y) * inv; /* lambda = (y2 - y1) / (x2 - x1) */
  }
  affine<F> r;
  r.x = lambda.sqr() - p.x - q.x;   /* x3 = lambda^2 - x1 - x2 */
  r.y = lambda * (p.x - r.x) - p.y; /* y3 = lambda (x1 - x3) - y1 */
  return r;
}

}  // namespace cuzk::cuda
