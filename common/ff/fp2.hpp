// Fp2 = Fp[u] / (u^2 + 1): the field of G2 coordinates.
#pragma once

#include <optional>

#include "ff/fp.hpp"

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

  /* Karatsuba: (a0 + a1 u)(b0 + b1 u) = a0 b0 - a1 b1 + ((a0 + a1)(b0 + b1) - a0 b0 - a1 b1) u */
  friend fp2_t operator*(const fp2_t& a, const fp2_t& b) {
    fp_t v0 = a.c0 * b.c0, v1 = a.c1 * b.c1;
    return {v0 - v1, (a.c0 + a.c1) * (b.c0 + b.c1) - v0 - v1};
  }
  /* (a0 + a1 u)^2 = (a0 + a1)(a0 - a1) + 2 a0 a1 u */
  fp2_t sqr() const { return {(c0 + c1) * (c0 - c1), (c0 * c1).dbl()}; }
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

}  // namespace cuzk::ff
