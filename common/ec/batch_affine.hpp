// Affine arithmetic that shares one field inversion across many points
// (Montgomery's trick): batch normalization of Jacobian points, and the
// batch-affine addition MSM bucket accumulation uses.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "ec/jacobian.hpp"

namespace cuzk::ec {

/* v[i] = 1 / v[i] for all i with 3(n-1) multiplications and one inversion:
   prefix products c_i = v_0 ... v_i, then walk back with c_{n-1}^-1.
   Zeros are skipped and stay zero. */
template <class F>
void batch_inverse(std::span<F> v) {
  std::vector<F> prefix(v.size());
  F acc = F::one();
  for (std::size_t i = 0; i < v.size(); ++i) {
    prefix[i] = acc; /* prefix_i = v_0 ... v_{i-1} */
    if (!v[i].is_zero()) acc *= v[i];
  }
  F inv = acc.inverse(); /* (v_0 ... v_{n-1})^-1 */
  for (std::size_t i = v.size(); i-- > 0;) {
    if (v[i].is_zero()) continue;
    F vi = v[i];
    v[i] = inv * prefix[i]; /* v_i^-1 = (v_0 ... v_i)^-1 (v_0 ... v_{i-1}) */
    inv *= vi;              /* (v_0 ... v_{i-1})^-1 */
  }
}

/* out[i] = in[i] in affine form, one inversion for the whole batch. */
template <class C>
void batch_to_affine(std::span<const jacobian<C>> in, std::span<typename jacobian<C>::affine_t> out) {
  using F = typename jacobian<C>::field_t;
  std::vector<F> zinv(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) zinv[i] = in[i].Z;
  batch_inverse<F>(zinv);
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (in[i].is_identity()) {
      out[i] = {};
      continue;
    }
    F zi2 = zinv[i].sqr();
    out[i] = {in[i].X * zi2, in[i].Y * zi2 * zinv[i], false}; /* x = X/Z^2, y = Y/Z^3 */
  }
}

template <class C>
std::vector<typename jacobian<C>::affine_t> batch_to_affine(std::span<const jacobian<C>> in) {
  std::vector<typename jacobian<C>::affine_t> out(in.size());
  batch_to_affine<C>(in, out);
  return out;
}

/* The denominator of the chord-and-tangent slope of P + Q: x2 - x1, or 2 y1
   when P = Q. Zero when the sum needs no inversion (an input is infinity, or
   Q = -P). */
template <class F>
F affine_add_denominator(const affine_point<F>& p, const affine_point<F>& q) {
  if (p.infinity || q.infinity) return F::zero();
  if (!(p.x == q.x)) return q.x - p.x;
  if (p.y == q.y) return p.y.dbl();
  return F::zero();
}

/* P + Q given inv = 1 / affine_add_denominator(P, Q):
   lambda = (y2 - y1) / (x2 - x1), or 3 x1^2 / (2 y1) when P = Q;
   x3 = lambda^2 - x1 - x2, y3 = lambda (x1 - x3) - y1. */
template <class F>
affine_point<F> affine_add_with_inverse(const affine_point<F>& p, const affine_point<F>& q, const F& inv) {
  if (p.infinity) return q;
  if (q.infinity) return p;
  F lambda;
  if (!(p.x == q.x)) {
    lambda = (q.y - p.y) * inv; /* lambda = (y2 - y1) / (x2 - x1) */
  } else if (p.y == q.y) {
    F xx = p.x.sqr();
    lambda = (xx.dbl() + xx) * inv; /* lambda = 3 x1^2 / (2 y1) */
  } else {
    return {}; /* Q = -P */
  }
  F x3 = lambda.sqr() - p.x - q.x;               /* x3 = lambda^2 - x1 - x2 */
  return {x3, lambda * (p.x - x3) - p.y, false}; /* y3 = lambda (x1 - x3) - y1 */
}

/* acc[i] += add[i] for every i, with one shared inversion. */
template <class F>
void batch_add_affine(std::span<affine_point<F>> acc, std::span<const affine_point<F>> add) {
  std::vector<F> den(acc.size());
  for (std::size_t i = 0; i < acc.size(); ++i) den[i] = affine_add_denominator(acc[i], add[i]);
  batch_inverse<F>(den);
  for (std::size_t i = 0; i < acc.size(); ++i) acc[i] = affine_add_with_inverse(acc[i], add[i], den[i]);
}

}  // namespace cuzk::ec
