// Fp2 = Fp[u] / (u^2 + 1): the field of G2 coordinates, for a curve C whose
// p = 3 mod 4 (-1 a non-residue; BLS12-381 and BN254 alike).
#pragma once

#include <optional>

#include "ff/fp.hpp"
#include "ff/fp_wide.hpp"

namespace cuzk::ff {

template <class C>
struct fp2 {
  using curve = C;
  using base_t = fp<C>;
  base_t c0, c1;  // c0 + c1 u

  static fp2 zero() { return {}; }
  static fp2 one() { return {base_t::one(), base_t::zero()}; }
  bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  bool is_one() const { return c0.is_one() && c1.is_zero(); }
  friend bool operator==(const fp2& a, const fp2& b) = default;

  friend fp2 operator+(const fp2& a, const fp2& b) { return {a.c0 + b.c0, a.c1 + b.c1}; }
  friend fp2 operator-(const fp2& a, const fp2& b) { return {a.c0 - b.c0, a.c1 - b.c1}; }
  fp2 operator-() const { return {-c0, -c1}; }
  fp2 dbl() const { return {c0.dbl(), c1.dbl()}; }

  /* one Montgomery reduction per coefficient (mul_wide below) */
  fp2 sqr() const;
  fp2 operator*(const base_t& s) const { return {c0 * s, c1 * s}; }

  fp2& operator+=(const fp2& b) { return *this = *this + b; }
  fp2& operator-=(const fp2& b) { return *this = *this - b; }
  fp2& operator*=(const fp2& b) { return *this = *this * b; }

  fp2 conjugate() const { return {c0, -c1}; }
  /* x^p = conjugate(x), since u^p = -u for p = 3 mod 4 */
  fp2 frobenius() const { return conjugate(); }
  /* norm N(x) = x * conj(x) = c0^2 + c1^2 in Fp */
  base_t norm() const { return c0.sqr() + c1.sqr(); }
  /* x xi, xi = k + u the non-residue of the Fp6 tower (k = C::xi_c0):
       (c0 + c1 u)(k + u) = (k c0 - c1) + (c0 + k c1) u */
  fp2 mul_by_nonresidue() const;

  /* x^-1 = conj(x) / N(x); zero maps to zero */
  fp2 inverse() const {
    base_t n = norm().inverse();
    return {c0 * n, -(c1 * n)};
  }

  template <std::size_t M>
  fp2 pow(const limbs::big<M>& e) const {
    fp2 r = one();
    for (std::size_t i = limbs::bit_length(e); i-- > 0;) {
      r = r.sqr();
      if (limbs::bit(e, i)) r *= *this;
    }
    return r;
  }

  /* x is a square in Fp2 iff N(x) is a square in Fp */
  int legendre() const { return is_zero() ? 0 : norm().legendre(); }

  /* Square root for p = 3 mod 4, one Fp exponentiation per step: with
     z = s^((p-3)/4), s z^2 = s^((p-1)/2) = +-1, so x = s z is sqrt(s) with
     x^-1 = z when s is a square, and x^2 = -s when it is not.
     With d = sqrt(N(a)) and s = (c0 + d)/2: sqrt(a) = x + c1/(2x) u; when s is
     not a square, s' = (c0 - d)/2 = -c1^2/(4s) is, and sqrt(s') = c1/(2x).
     Returns nullopt for non-squares. */
  std::optional<fp2> sqrt() const {
    using P = typename C::fp_params;
    static_assert(P::two_adicity == 1, "t_minus1_over2 = (p - 3)/4 needs p = 3 mod 4");
    constexpr const auto& e = P::t_minus1_over2;
    if (c1.is_zero()) {  // c0 or -c0 is a square: (x, 0) or (0, x), x = c0^((p+1)/4)
      base_t x = c0 * c0.pow(e);
      if (x.sqr() == c0) return fp2{x, base_t::zero()};
      return fp2{base_t::zero(), x};
    }
    auto d = norm().sqrt();
    if (!d) return std::nullopt;
    static const base_t half = base_t::from_u64(2).inverse();
    base_t s = (c0 + *d) * half, z = s.pow(e), x = s * z;
    fp2 r = x.sqr() == s ? fp2{x, c1 * half * z} : fp2{c1 * half * x.inverse(), x};
    if (!(r.sqr() == *this)) return std::nullopt;
    return r;
  }

  /* Lexicographic "sign" of the zcash encoding: the larger of y and -y,
     comparing c1 first and c0 when c1 is zero. */
  bool lexicographically_largest() const {
    auto largest = [](const base_t& a) {  // a > (p - 1) / 2
      return limbs::less(C::fp_params::m_minus1_over2, a.to_canonical());
    };
    return c1.is_zero() ? largest(c0) : largest(c1);
  }
};

using fp2_t = fp2<curves::bls12_381>;

namespace lazy {

template <class C>
struct fp2_wide {
  fp_wide<typename C::fp_params> c0, c1;
};

/* Fp2 sums with the branch-free Fp additions of fp_wide.hpp */
template <class C>
inline fp2<C> add(const fp2<C>& a, const fp2<C>& b) {
  return {add(a.c0, b.c0), add(a.c1, b.c1)};
}
template <class C>
inline fp2<C> sub(const fp2<C>& a, const fp2<C>& b) {
  return {sub(a.c0, b.c0), sub(a.c1, b.c1)};
}
template <class C>
inline fp2<C> dbl(const fp2<C>& a) {
  return add(a, a);
}
template <class C>
inline fp2_wide<C> add(const fp2_wide<C>& a, const fp2_wide<C>& b) {
  return {add(a.c0, b.c0), add(a.c1, b.c1)};
}
template <class C>
inline fp2_wide<C> sub(const fp2_wide<C>& a, const fp2_wide<C>& b) {
  return {sub(a.c0, b.c0), sub(a.c1, b.c1)};
}

/* k a for the small constant k of xi = k + u, by doublings and additions */
template <unsigned K, class T>
inline T times_small(const T& a) {
  static_assert(K >= 1);
  if constexpr (K == 1)
    return a;
  else if constexpr (K % 2 == 0) {
    T h = times_small<K / 2>(a);
    return add(h, h);
  } else
    return add(times_small<K - 1>(a), a);
}

/* times xi = k + u: (k c0 - c1) + (c0 + k c1) u; for BLS12-381 (k = 1)
   (c0 - c1) + (c0 + c1) u */
template <class C, class T>
inline T mul_by_xi(const T& a) {
  constexpr unsigned k = C::xi_c0;
  return {sub(times_small<k>(a.c0), a.c1), add(a.c0, times_small<k>(a.c1))};
}
template <class C>
inline fp2<C> mul_by_nonresidue(const fp2<C>& a) {
  return mul_by_xi<C>(a);
}
template <class C>
inline fp2_wide<C> mul_by_nonresidue(const fp2_wide<C>& a) {
  return mul_by_xi<C>(a);
}

/* Schoolbook with the subtraction folded into an operand (zkcrypto bls12_381's
   "sum of products" idea): with u^2 = -1,
     c0 = a0 b0 + (p - a1) b1,  c1 = a0 b1 + a1 b0,
   each a sum of two products below p^2, so below 2 p^2 < p R. */
template <class C>
inline fp2_wide<C> mul_wide(const fp2<C>& a, const fp2<C>& b) {
  constexpr std::size_t W = 2 * C::fp_params::n_limbs;
  fp<C> na1 = -a.c1;
  auto t0 = mul_wide(a.c0, b.c0), t1 = mul_wide(na1, b.c1);
  auto t2 = mul_wide(a.c0, b.c1), t3 = mul_wide(a.c1, b.c0);
  fp2_wide<C> r;
  unsigned char c0 = 0, c1 = 0;
#pragma GCC unroll 12
  for (std::size_t i = 0; i < W; ++i) {
    c0 = detail::addc(c0, t0.l[i], t1.l[i], r.c0.l[i]);
    c1 = detail::addc(c1, t2.l[i], t3.l[i], r.c1.l[i]);
  }
  return r;
}

/* (a0 + a1 u)^2 = (a0 + a1)(a0 - a1) + 2 a0 a1 u, operands below 2p unreduced:
   c0 < 4 p^2, c1 < 2 p^2 */
template <class C>
inline fp2_wide<C> sqr_wide(const fp2<C>& a) {
  using P = typename C::fp_params;
  return {mul_wide<P>(add_nr(a.c0, a.c1), sub_nr(a.c0, a.c1)), mul_wide<P>(add_nr(a.c0, a.c0), a.c1.l)};
}

template <class C>
inline fp2<C> reduce(const fp2_wide<C>& a) {
  return {reduce(a.c0), reduce(a.c1)};
}

template <class C>
inline fp2<C> mul(const fp2<C>& a, const fp2<C>& b) {
  return reduce(mul_wide(a, b));
}
template <class C>
inline fp2<C> sqr(const fp2<C>& a) {
  return reduce(sqr_wide(a));
}
/* a s for s in Fp */
template <class C>
inline fp2<C> mul(const fp2<C>& a, const fp<C>& s) {
  return {mul(a.c0, s), mul(a.c1, s)};
}

}  // namespace lazy

template <class C>
inline fp2<C> operator*(const fp2<C>& a, const fp2<C>& b) {
  return lazy::reduce(lazy::mul_wide(a, b));
}
template <class C>
inline fp2<C> fp2<C>::sqr() const {
  return lazy::reduce(lazy::sqr_wide(*this));
}
template <class C>
inline fp2<C> fp2<C>::mul_by_nonresidue() const {
  return lazy::mul_by_nonresidue(*this);
}

}  // namespace cuzk::ff
