// Arithmetic in the cyclotomic subgroup G_phi6(p^2) of Fp12^*: the elements
// with a^(p^4 - p^2 + 1) = 1, where the final exponentiation's hard part runs
// (every value after the easy part (p^6 - 1)(p^2 + 1) lies there).
#pragma once

#include <cstdint>

#include "ff/fp12.hpp"

namespace cuzk::ff {

namespace lazy {
/* (a + b s)^2 in Fp4 = Fp2[s] / (s^2 - xi), reduced once per coefficient:
     = a^2 + xi b^2 + ((a + b)^2 - a^2 - b^2) s */
template <class C>
inline void fp4_sqr(fp2<C>& r0, fp2<C>& r1, const fp2<C>& a, const fp2<C>& b) {
  fp2_wide<C> a2 = sqr_wide(a), b2 = sqr_wide(b), ab2 = sqr_wide(add(a, b));
  r0 = reduce(add(mul_by_nonresidue(b2), a2));
  r1 = reduce(sub(ab2, add(a2, b2)));
}
}  // namespace lazy

/* Granger-Scott squaring (eprint 2009/565, section 3.1), valid only in the
   cyclotomic subgroup: 9 Fp2 squarings instead of 12 Fp2 products.
   Fp12 = Fp4[w] / (w^3 - s) with Fp4 = Fp2[s] / (s^2 - xi), s = w^3, and
   a = g0 + g1 w + g2 w^2 with
     g0 = c0.c0 + c1.c1 s,  g1 = c1.c0 + c0.c2 s,  g2 = c0.c1 + c1.c2 s.
   For a in G_phi6(p^2) (conj = the Fp4 conjugation b s -> -b s):
     a^2 = (3 g0^2 - 2 conj(g0)) + (3 s g2^2 + 2 conj(g1)) w + (3 g1^2 - 2 conj(g2)) w^2 */
template <class C>
inline fp12<C> cyclotomic_sqr(const fp12<C>& a) {
  using fp2_t = fp2<C>;
  using namespace lazy;
  fp2_t z0 = a.c0.c0, z1 = a.c1.c1;  // g0
  fp2_t z2 = a.c1.c0, z3 = a.c0.c2;  // g1
  fp2_t z4 = a.c0.c1, z5 = a.c1.c2;  // g2
  fp2_t t0, t1, t2, t3, t4, t5;
  fp4_sqr(t0, t1, z0, z1);  // g0^2
  fp4_sqr(t2, t3, z2, z3);  // g1^2
  fp4_sqr(t4, t5, z4, z5);  // g2^2
  /* g0' = 3 g0^2 - 2 conj(g0) */
  z0 = add(dbl(sub(t0, z0)), t0);
  z1 = add(dbl(add(t1, z1)), t1);
  /* g1' = 3 s g2^2 + 2 conj(g1), s (t4 + t5 s) = xi t5 + t4 s */
  fp2_t xt5 = mul_by_nonresidue(t5);
  z2 = add(dbl(add(xt5, z2)), xt5);
  z3 = add(dbl(sub(t4, z3)), t4);
  /* g2' = 3 g1^2 - 2 conj(g2) */
  z4 = add(dbl(sub(t2, z4)), t2);
  z5 = add(dbl(add(t3, z5)), t3);
  return {{z0, z4, z3}, {z2, z1, z5}};
}

/* a^e for a in the cyclotomic subgroup (left-to-right, cyclotomic squarings) */
template <class C>
inline fp12<C> cyclotomic_exp(const fp12<C>& a, std::uint64_t e) {
  fp12<C> r = fp12<C>::one();
  bool started = false;
  for (int i = 63; i >= 0; --i) {
    if (started) r = cyclotomic_sqr(r);
    if ((e >> i) & 1) {
      r = started ? r * a : a;
      started = true;
    }
  }
  return r;
}

}  // namespace cuzk::ff
