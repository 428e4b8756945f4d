// Double-width Fp2 values (fp_wide.hpp) and the Fp2 product and square with
// one reduction per coefficient: the building blocks of the lazy Fp6/Fp12
// arithmetic. Every fp2_wide_t coefficient stays below p R.
#pragma once

#include "ff/fp2.hpp"
#include "ff/fp_wide.hpp"

namespace cuzk::ff::lazy {

struct fp2_wide_t {
  fp_wide_t c0, c1;
};

/* Fp2 sums with the branch-free Fp additions of fp_wide.hpp */
inline fp2_t add(const fp2_t& a, const fp2_t& b) { return {add(a.c0, b.c0), add(a.c1, b.c1)}; }
inline fp2_t sub(const fp2_t& a, const fp2_t& b) { return {sub(a.c0, b.c0), sub(a.c1, b.c1)}; }
inline fp2_t dbl(const fp2_t& a) { return add(a, a); }
/* times xi = 1 + u: (c0 - c1) + (c0 + c1) u */
inline fp2_t mul_by_nonresidue(const fp2_t& a) { return {sub(a.c0, a.c1), add(a.c0, a.c1)}; }

/* Schoolbook with the subtraction folded into an operand (zkcrypto bls12_381's
   "sum of products" idea): with u^2 = -1,
     c0 = a0 b0 + (p - a1) b1,  c1 = a0 b1 + a1 b0,
   each a sum of two products below p^2, so below 2 p^2 < p R. */
inline fp2_wide_t mul_wide(const fp2_t& a, const fp2_t& b) {
  fp_t na1 = -a.c1;
  fp_wide_t t0 = mul_wide(a.c0, b.c0), t1 = mul_wide(na1, b.c1);
  fp_wide_t t2 = mul_wide(a.c0, b.c1), t3 = mul_wide(a.c1, b.c0);
  fp2_wide_t r;
  unsigned char c0 = 0, c1 = 0;
#pragma GCC unroll 12
  for (int i = 0; i < 12; ++i) {
    c0 = detail::addc(c0, t0.l[i], t1.l[i], r.c0.l[i]);
    c1 = detail::addc(c1, t2.l[i], t3.l[i], r.c1.l[i]);
  }
  return r;
}

/* (a0 + a1 u)^2 = (a0 + a1)(a0 - a1) + 2 a0 a1 u, operands below 2p unreduced:
   c0 < 4 p^2, c1 < 2 p^2 */
inline fp2_wide_t sqr_wide(const fp2_t& a) {
  return {mul_wide(add_nr(a.c0, a.c1), sub_nr(a.c0, a.c1)), mul_wide(add_nr(a.c0, a.c0), a.c1.l)};
}

inline fp2_wide_t add(const fp2_wide_t& a, const fp2_wide_t& b) { return {add(a.c0, b.c0), add(a.c1, b.c1)}; }
inline fp2_wide_t sub(const fp2_wide_t& a, const fp2_wide_t& b) { return {sub(a.c0, b.c0), sub(a.c1, b.c1)}; }
/* times xi = 1 + u: (c0 - c1) + (c0 + c1) u */
inline fp2_wide_t mul_by_nonresidue(const fp2_wide_t& a) { return {sub(a.c0, a.c1), add(a.c0, a.c1)}; }

inline fp2_t reduce(const fp2_wide_t& a) { return {reduce(a.c0), reduce(a.c1)}; }

inline fp2_t mul(const fp2_t& a, const fp2_t& b) { return reduce(mul_wide(a, b)); }
inline fp2_t sqr(const fp2_t& a) { return reduce(sqr_wide(a)); }
/* a s for s in Fp */
inline fp2_t mul(const fp2_t& a, const fp_t& s) { return {mul(a.c0, s), mul(a.c1, s)}; }

}  // namespace cuzk::ff::lazy
