// Fp6 = Fp2[v] / (v^3 - xi): the middle of the pairing tower, xi = 1 + u on
// BLS12-381 and 9 + u on BN254 (the towers of blst, zcash bls12_381,
// arkworks and @noble/curves).
#pragma once

#include <cstddef>

#include "ff/fp2.hpp"

namespace cuzk::ff {

namespace tower {
/* gamma(k, j) = xi^(j (p^k - 1) / 6) for k = 1..3, j = 1..5 (C::frobenius_gamma) */
template <class C>
constexpr fp2<C> gamma(unsigned k, unsigned j) {
  const auto& g = C::frobenius_gamma[k - 1][j - 1];
  return {fp<C>::from_montgomery(g.c0), fp<C>::from_montgomery(g.c1)};
}
/* a^(p^k) for a in Fp2: u^p = -u, so odd powers conjugate */
template <class C>
inline fp2<C> fp2_frobenius(const fp2<C>& a, unsigned k) {
  return (k & 1) ? a.conjugate() : a;
}
/* a * gamma(k, j); for k = 2 gamma lies in Fp and costs two Fp products */
template <class C>
inline fp2<C> mul_by_gamma(const fp2<C>& a, unsigned k, unsigned j) {
  fp2<C> g = gamma<C>(k, j);
  return k == 2 ? lazy::mul(a, g.c0) : lazy::mul(a, g);
}
}  // namespace tower

template <class C>
struct fp6 {
  using fp2_t = fp2<C>;
  fp2_t c0, c1, c2;  // c0 + c1 v + c2 v^2

  static fp6 zero() { return {}; }
  static fp6 one() { return {fp2_t::one(), fp2_t::zero(), fp2_t::zero()}; }
  bool is_zero() const { return c0.is_zero() && c1.is_zero() && c2.is_zero(); }
  bool is_one() const { return c0.is_one() && c1.is_zero() && c2.is_zero(); }
  friend bool operator==(const fp6& a, const fp6& b) = default;

  friend fp6 operator+(const fp6& a, const fp6& b) {
    return {lazy::add(a.c0, b.c0), lazy::add(a.c1, b.c1), lazy::add(a.c2, b.c2)};
  }
  friend fp6 operator-(const fp6& a, const fp6& b) {
    return {lazy::sub(a.c0, b.c0), lazy::sub(a.c1, b.c1), lazy::sub(a.c2, b.c2)};
  }
  fp6 operator-() const { return {-c0, -c1, -c2}; }
  fp6 dbl() const { return *this + *this; }
  fp6& operator+=(const fp6& b) { return *this = *this + b; }
  fp6& operator-=(const fp6& b) { return *this = *this - b; }

  /* (c0 + c1 v + c2 v^2) v = xi c2 + c0 v + c1 v^2, since v^3 = xi */
  fp6 mul_by_nonresidue() const { return {lazy::mul_by_nonresidue(c2), c0, c1}; }
  fp6 operator*(const fp2_t& s) const { return {lazy::mul(c0, s), lazy::mul(c1, s), lazy::mul(c2, s)}; }

  /* products by Karatsuba / Chung-Hasan with lazy reduction (below) */
  fp6& operator*=(const fp6& b) { return *this = *this * b; }
  fp6 sqr() const;
  /* sparse products by b1 v and by b0 + b1 v */
  fp6 mul_by_1(const fp2_t& b1) const;
  fp6 mul_by_01(const fp2_t& b0, const fp2_t& b1) const;

  /* a^-1 = adj(a) / N, from the norm of Fp6 over Fp2:
       t0 = a0^2 - xi a1 a2, t1 = xi a2^2 - a0 a1, t2 = a1^2 - a0 a2
       N  = a0 t0 + xi (a2 t1 + a1 t2),  a^-1 = (t0 + t1 v + t2 v^2) / N
     Zero maps to zero. */
  fp6 inverse() const {
    fp2_t t0 = c0.sqr() - (c1 * c2).mul_by_nonresidue();
    fp2_t t1 = c2.sqr().mul_by_nonresidue() - c0 * c1;
    fp2_t t2 = c1.sqr() - c0 * c2;
    fp2_t n = c0 * t0 + (c2 * t1 + c1 * t2).mul_by_nonresidue();
    fp2_t ni = n.inverse();
    return {t0 * ni, t1 * ni, t2 * ni};
  }

  /* a^(p^k) = a0^(p^k) + a1^(p^k) v^(p^k) + a2^(p^k) v^(2 p^k), with
     v^(p^k - 1) = xi^((p^k - 1)/3) = gamma(k, 2) and v^(2(p^k - 1)) = gamma(k, 4) */
  fp6 frobenius_map(unsigned k) const {
    fp6 r = *this;
    for (; k > 3; k -= 3) r = r.frobenius_map(3);
    if (k == 0) return r;
    return {tower::fp2_frobenius(r.c0, k), tower::mul_by_gamma(tower::fp2_frobenius(r.c1, k), k, 2),
            tower::mul_by_gamma(tower::fp2_frobenius(r.c2, k), k, 4)};
  }
};

namespace lazy {

template <class C>
struct fp6_wide {
  fp2_wide<C> c0, c1, c2;
};

template <class C>
inline fp6_wide<C> add(const fp6_wide<C>& a, const fp6_wide<C>& b) {
  return {add(a.c0, b.c0), add(a.c1, b.c1), add(a.c2, b.c2)};
}
template <class C>
inline fp6_wide<C> sub(const fp6_wide<C>& a, const fp6_wide<C>& b) {
  return {sub(a.c0, b.c0), sub(a.c1, b.c1), sub(a.c2, b.c2)};
}
/* times v: (c0 + c1 v + c2 v^2) v = xi c2 + c0 v + c1 v^2 */
template <class C>
inline fp6_wide<C> mul_by_nonresidue(const fp6_wide<C>& a) {
  return {mul_by_nonresidue(a.c2), a.c0, a.c1};
}
template <class C>
inline fp6<C> reduce(const fp6_wide<C>& a) {
  return {reduce(a.c0), reduce(a.c1), reduce(a.c2)};
}

/* Karatsuba over three terms, 6 Fp2 products (Devegili, O hEigeartaigh,
   Scott, Dahab, "Multiplication and squaring on pairing-friendly fields",
   eprint 2006/471, section 4):
     v0 = a0 b0, v1 = a1 b1, v2 = a2 b2
     c0 = v0 + xi ((a1 + a2)(b1 + b2) - v1 - v2)
     c1 = (a0 + a1)(b0 + b1) - v0 - v1 + xi v2
     c2 = (a0 + a2)(b0 + b2) - v0 - v2 + v1 */
template <class C>
inline fp6_wide<C> mul_wide(const fp6<C>& a, const fp6<C>& b) {
  fp2_wide<C> v0 = mul_wide(a.c0, b.c0), v1 = mul_wide(a.c1, b.c1), v2 = mul_wide(a.c2, b.c2);
  fp2_wide<C> t0 = mul_wide(add(a.c1, a.c2), add(b.c1, b.c2));
  fp2_wide<C> t1 = mul_wide(add(a.c0, a.c1), add(b.c0, b.c1));
  fp2_wide<C> t2 = mul_wide(add(a.c0, a.c2), add(b.c0, b.c2));
  return {add(mul_by_nonresidue(sub(t0, add(v1, v2))), v0), add(sub(t1, add(v0, v1)), mul_by_nonresidue(v2)),
          add(sub(t2, add(v0, v2)), v1)};
}

/* Chung-Hasan SQ2 (eprint 2006/471, section 4), 2 products + 3 squares:
     s0 = a0^2, s1 = 2 a0 a1, s2 = (a0 - a1 + a2)^2, s3 = 2 a1 a2, s4 = a2^2
     c0 = s0 + xi s3, c1 = s1 + xi s4, c2 = s1 + s2 + s3 - s0 - s4 */
template <class C>
inline fp6_wide<C> sqr_wide(const fp6<C>& a) {
  fp2_wide<C> s0 = sqr_wide(a.c0), s1 = mul_wide(dbl(a.c0), a.c1), s2 = sqr_wide(add(sub(a.c0, a.c1), a.c2));
  fp2_wide<C> s3 = mul_wide(dbl(a.c1), a.c2), s4 = sqr_wide(a.c2);
  return {add(s0, mul_by_nonresidue(s3)), add(s1, mul_by_nonresidue(s4)), sub(add(add(s1, s2), s3), add(s0, s4))};
}

/* (a0 + a1 v + a2 v^2) b1 v = xi a2 b1 + a0 b1 v + a1 b1 v^2 */
template <class C>
inline fp6_wide<C> mul_by_1_wide(const fp6<C>& a, const fp2<C>& b1) {
  return {mul_by_nonresidue(mul_wide(a.c2, b1)), mul_wide(a.c0, b1), mul_wide(a.c1, b1)};
}

/* Karatsuba with b2 = 0, 5 Fp2 products:
     c0 = a0 b0 + xi a2 b1
     c1 = (a0 + a1)(b0 + b1) - a0 b0 - a1 b1
     c2 = a2 b0 + a1 b1 */
template <class C>
inline fp6_wide<C> mul_by_01_wide(const fp6<C>& a, const fp2<C>& b0, const fp2<C>& b1) {
  fp2_wide<C> v0 = mul_wide(a.c0, b0), v1 = mul_wide(a.c1, b1);
  return {add(mul_by_nonresidue(mul_wide(a.c2, b1)), v0), sub(mul_wide(add(a.c0, a.c1), add(b0, b1)), add(v0, v1)),
          add(mul_wide(a.c2, b0), v1)};
}

/* a b0 for b0 in Fp2: 3 Fp2 products */
template <class C>
inline fp6_wide<C> mul_by_0_wide(const fp6<C>& a, const fp2<C>& b0) {
  return {mul_wide(a.c0, b0), mul_wide(a.c1, b0), mul_wide(a.c2, b0)};
}

}  // namespace lazy

template <class C>
inline fp6<C> operator*(const fp6<C>& a, const fp6<C>& b) {
  return lazy::reduce(lazy::mul_wide(a, b));
}
template <class C>
inline fp6<C> fp6<C>::sqr() const {
  return lazy::reduce(lazy::sqr_wide(*this));
}
template <class C>
inline fp6<C> fp6<C>::mul_by_1(const fp2_t& b1) const {
  return lazy::reduce(lazy::mul_by_1_wide(*this, b1));
}
template <class C>
inline fp6<C> fp6<C>::mul_by_01(const fp2_t& b0, const fp2_t& b1) const {
  return lazy::reduce(lazy::mul_by_01_wide(*this, b0, b1));
}

using fp6_t = fp6<curves::bls12_381>;

}  // namespace cuzk::ff
