// Fp2 = Fp[u] / (u^2 + 1): the field of G2 coordinates.
#pragma once

#include <optional>

#include "ff/fp.hpp"
#include "ff/fp_wide.hpp"

namespace cuzk::ff {

struct fp2_t {
  fp_t c0, c1;  // c0 + c1 u

  static fp2_t zero() { return {}; }
  static fp2_t one() { return {fp_t::one(), fp_t::zero()}; }
  bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  bool is_one() const { return c0.is_one() && c1.is_zero(); }
  friend bool operator==(const fp2_t& a, const fp2_t& b) = default;

  friend fp2_t operator+(const fp2_t& a, const fp2_t& b) { return {a.c0 + b.c0, a.c1 + b.c1}; }
  friend fp2_t operator-(const fp2_t& a, const fp2_t& b) { return {a.c0 - b.c0, a.c1 - b.c1}; }
  fp2_t operator-() const { return {-c0, -c1}; }
  fp2_t dbl() const { return {c0.dbl(), c1.dbl()}; }

  /* one Montgomery reduction per coefficient (mul_wide below) */
  friend fp2_t operator*(const fp2_t& a, const fp2_t& b);
  fp2_t sqr() const;
  fp2_t operator*(const fp_t& s) const { return {c0 * s, c1 * s}; }

  fp2_t& operator+=(const fp2_t& b) { return *this = *this + b; }
  fp2_t& operator-=(const fp2_t& b) { return *this = *this - b; }
  fp2_t& operator*=(const fp2_t& b) { return *this = *this * b; }

  fp2_t conjugate() const { return {c0, -c1}; }
  /* x^p = conjugate(x), since u^p = -u for p = 3 mod 4 */
  fp2_t frobenius() const { return conjugate(); }
  /* norm N(x) = x * conj(x) = c0^2 + c1^2 in Fp */
  fp_t norm() const { return c0.sqr() + c1.sqr(); }
  /* x (1 + u): multiplication by the non-residue xi = 1 + u of the Fp6 tower */
  fp2_t mul_by_nonresidue() const { return {c0 - c1, c0 + c1}; }

  /* x^-1 = conj(x) / N(x); zero maps to zero */
  fp2_t inverse() const {
    fp_t n = norm().inverse();
    return {c0 * n, -(c1 * n)};
  }

  template <std::size_t M>
  fp2_t pow(const limbs::big<M>& e) const {
    fp2_t r = one();
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
  std::optional<fp2_t> sqrt() const {
    static_assert(fp_params::two_adicity == 1, "t_minus1_over2 = (p - 3)/4 needs p = 3 mod 4");
    constexpr const auto& e = fp_params::t_minus1_over2;
    if (c1.is_zero()) {  // c0 or -c0 is a square: (x, 0) or (0, x), x = c0^((p+1)/4)
      fp_t x = c0 * c0.pow(e);
      if (x.sqr() == c0) return fp2_t{x, fp_t::zero()};
      return fp2_t{fp_t::zero(), x};
    }
    auto d = norm().sqrt();
    if (!d) return std::nullopt;
    static const fp_t half = fp_t::from_u64(2).inverse();
    fp_t s = (c0 + *d) * half, z = s.pow(e), x = s * z;
    fp2_t r = x.sqr() == s ? fp2_t{x, c1 * half * z} : fp2_t{c1 * half * x.inverse(), x};
    if (!(r.sqr() == *this)) return std::nullopt;
    return r;
  }

  /* Lexicographic "sign" of the zcash encoding: the larger of y and -y,
     comparing c1 first and c0 when c1 is zero. */
  bool lexicographically_largest() const;
};

namespace detail {
inline bool fp_is_largest(const fp_t& a) {
  // a > (p - 1) / 2
  return limbs::less(fp_params::m_minus1_over2, a.to_canonical());
}
}  // namespace detail

inline bool fp2_t::lexicographically_largest() const {
  if (!c1.is_zero()) return detail::fp_is_largest(c1);
  return detail::fp_is_largest(c0);
}


namespace lazy {

struct fp2_wide_t {
  fp_wide_t c0, c1;
};

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

inline fp2_t reduce(const fp2_wide_t& a) { return {reduce(a.c0), reduce(a.c1)}; }

}  // namespace lazy

inline fp2_t operator*(const fp2_t& a, const fp2_t& b) { return lazy::reduce(lazy::mul_wide(a, b)); }
inline fp2_t fp2_t::sqr() const { return lazy::reduce(lazy::sqr_wide(*this)); }

}  // namespace cuzk::ff
