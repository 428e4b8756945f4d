// Fp12 = Fp6[w] / (w^2 - v): the target field of a curve's pairing.
// Coefficient order (as blst, zcash and @noble/curves):
//   c0.c0, c0.c1, c0.c2, c1.c0, c1.c1, c1.c2  =  w^0, w^2, w^4, w^1, w^3, w^5.
// Products and squares form double-width coefficients and reduce each output
// coefficient once (fp_wide.hpp, fp2_wide.hpp).
#pragma once

#include <cstddef>

#include "ff/fp6.hpp"

namespace cuzk::ff {

template <class C>
struct fp12 {
  using fp2_t = fp2<C>;
  using fp6_t = fp6<C>;
  fp6_t c0, c1;  // c0 + c1 w

  static fp12 zero() { return {}; }
  static fp12 one() { return {fp6_t::one(), fp6_t::zero()}; }
  bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  bool is_one() const { return c0.is_one() && c1.is_zero(); }
  friend bool operator==(const fp12& a, const fp12& b) = default;

  friend fp12 operator+(const fp12& a, const fp12& b) { return {a.c0 + b.c0, a.c1 + b.c1}; }
  friend fp12 operator-(const fp12& a, const fp12& b) { return {a.c0 - b.c0, a.c1 - b.c1}; }
  fp12 operator-() const { return {-c0, -c1}; }
  fp12& operator+=(const fp12& b) { return *this = *this + b; }
  fp12& operator-=(const fp12& b) { return *this = *this - b; }

  /* Karatsuba, 3 Fp6 products (eprint 2006/471, section 3), reduced once per
     coefficient at the end:
       aa = a0 b0, bb = a1 b1
       c0 = aa + bb v,  c1 = (a0 + a1)(b0 + b1) - aa - bb */
  friend fp12 operator*(const fp12& a, const fp12& b) {
    using namespace lazy;
    fp6_wide<C> aa = mul_wide(a.c0, b.c0), bb = mul_wide(a.c1, b.c1);
    fp6_wide<C> t = mul_wide(a.c0 + a.c1, b.c0 + b.c1);
    return {reduce(add(aa, mul_by_nonresidue(bb))), reduce(sub(t, add(aa, bb)))};
  }
  fp12& operator*=(const fp12& b) { return *this = *this * b; }

  /* Complex squaring, 2 Fp6 products (eprint 2006/471, section 3):
       ab = a0 a1
       c0 = (a0 + a1)(a0 + a1 v) - ab - ab v,  c1 = 2 ab */
  fp12 sqr() const {
    using namespace lazy;
    fp6_wide<C> ab = mul_wide(c0, c1);
    fp6_wide<C> t = mul_wide(c0 + c1, c0 + c1.mul_by_nonresidue());
    return {reduce(sub(t, add(ab, mul_by_nonresidue(ab)))), reduce(add(ab, ab))};
  }

  /* a^(p^6) = c0 - c1 w (w^(p^6) = -w); in the cyclotomic subgroup it is a^-1 */
  fp12 conjugate() const { return {c0, -c1}; }

  /* a^-1 = (c0 - c1 w) / (c0^2 - c1^2 v); zero maps to zero */
  fp12 inverse() const {
    fp6_t n = (c0.sqr() - c1.sqr().mul_by_nonresidue()).inverse();
    return {c0 * n, -(c1 * n)};
  }

  /* a^(p^k) = sum_j a_j^(p^k) gamma(k, j) w^j (tower_constants.hpp); the
     coefficient a_j of w^j is c0.c(j/2) for even j and c1.c(j/2) for odd j. */
  fp12 frobenius_map(unsigned k) const {
    fp12 r = *this;
    for (k %= 12; k > 3; k -= 3) r = r.frobenius_map(3);
    if (k == 0) return r;
    using tower::fp2_frobenius;
    using tower::mul_by_gamma;
    return {{fp2_frobenius(r.c0.c0, k),                        // w^0
             mul_by_gamma(fp2_frobenius(r.c0.c1, k), k, 2),    // w^2
             mul_by_gamma(fp2_frobenius(r.c0.c2, k), k, 4)},   // w^4
            {mul_by_gamma(fp2_frobenius(r.c1.c0, k), k, 1),    // w^1
             mul_by_gamma(fp2_frobenius(r.c1.c1, k), k, 3),    // w^3
             mul_by_gamma(fp2_frobenius(r.c1.c2, k), k, 5)}};  // w^5
  }

  /* Product by a line value l = l0 + l1 v + l4 v w (positions 0, 1 and 4 of
     the coefficient order), 13 Fp2 products instead of 18 (as the zcash
     bls12_381 crate's mul_by_014). With B0 = l0 + l1 v and B1 = l4 v:
       aa = a0 B0, bb = a1 B1
       c0 = aa + bb v,  c1 = (a0 + a1)(l0 + (l1 + l4) v) - aa - bb */
  fp12 mul_by_014(const fp2_t& l0, const fp2_t& l1, const fp2_t& l4) const {
    using namespace lazy;
    fp6_wide<C> aa = mul_by_01_wide(c0, l0, l1);
    fp6_wide<C> bb = mul_by_1_wide(c1, l4);
    fp6_wide<C> t = mul_by_01_wide(c0 + c1, l0, add(l1, l4));
    return {reduce(add(aa, mul_by_nonresidue(bb))), reduce(sub(t, add(aa, bb)))};
  }

  /* Product by a D-twist line value l = d0 + d3 w + d4 v w (positions 0, 3
     and 4 of the coefficient order: w^0, w^1, w^3), as arkworks'
     mul_by_034. With B0 = d0 in Fp2 and B1 = d3 + d4 v:
       aa = a0 d0, bb = a1 B1
       c0 = aa + bb v,  c1 = (a0 + a1)(d0 + d3 + d4 v) - aa - bb */
  fp12 mul_by_034(const fp2_t& d0, const fp2_t& d3, const fp2_t& d4) const {
    using namespace lazy;
    fp6_wide<C> aa = mul_by_0_wide(c0, d0);
    fp6_wide<C> bb = mul_by_01_wide(c1, d3, d4);
    fp6_wide<C> t = mul_by_01_wide(c0 + c1, add(d0, d3), d4);
    return {reduce(add(aa, mul_by_nonresidue(bb))), reduce(sub(t, add(aa, bb)))};
  }

  /* a^e for a little-endian exponent of any width (square and multiply) */
  template <std::size_t M>
  fp12 pow(const limbs::big<M>& e) const {
    fp12 r = one();
    for (std::size_t i = limbs::bit_length(e); i-- > 0;) {
      r = r.sqr();
      if (limbs::bit(e, i)) r *= *this;
    }
    return r;
  }
};

using fp12_t = fp12<curves::bls12_381>;

}  // namespace cuzk::ff
