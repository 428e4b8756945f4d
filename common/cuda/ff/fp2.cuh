// Fp2 = Fp[u] / (u^2 + 1) on the device: the same bytes as cuzk::ff::fp2_t.
#pragma once

#include <cstdint>

#include "cuda/ff/fp.cuh"

namespace cuzk::cuda {

struct fp2_t {
  fp_t c0, c1;  // c0 + c1 u

  CUZK_HDI static fp2_t zero() { return fp2_t{}; }
  CUZK_HDI static fp2_t one() { return {fp_t::one(), fp_t::zero()}; }
  CUZK_HDI bool is_zero() const {
    std::uint32_t acc = 0;
CUZK_UNROLL
    for (std::size_t i = 0; i < fp_t::n; ++i) acc |= c0.v[i] | c1.v[i];
    return acc == 0;
  }
  CUZK_HDI bool is_one() const { return c0.is_one() && c1.is_zero(); }
  CUZK_HDI friend bool operator==(const fp2_t& a, const fp2_t& b) { return a.c0 == b.c0 && a.c1 == b.c1; }
  CUZK_HDI friend bool operator!=(const fp2_t& a, const fp2_t& b) { return !(a == b); }

  CUZK_HDI friend fp2_t operator+(const fp2_t& a, const fp2_t& b) { return {a.c0 + b.c0, a.c1 + b.c1}; }
  CUZK_HDI friend fp2_t operator-(const fp2_t& a, const fp2_t& b) { return {a.c0 - b.c0, a.c1 - b.c1}; }
  CUZK_HDI fp2_t operator-() const { return {-c0, -c1}; }
  CUZK_HDI fp2_t dbl() const { return {c0.dbl(), c1.dbl()}; }
  CUZK_HDI fp2_t cneg(bool flag) const { return {c0.cneg(flag), c1.cneg(flag)}; }

  /* Karatsuba, u^2 = -1: c0 = a0 b0 - a1 b1, c1 = (a0 + a1)(b0 + b1) - a0 b0 - a1 b1 */
  CUZK_HDI friend fp2_t operator*(const fp2_t& a, const fp2_t& b) {
    fp_t t0 = a.c0 * b.c0;                      /* t0 = a0 b0 */
    fp_t t1 = a.c1 * b.c1;                      /* t1 = a1 b1 */
    fp_t t2 = (a.c0 + a.c1) * (b.c0 + b.c1);    /* t2 = (a0 + a1)(b0 + b1) */
    return {t0 - t1, t2 - t0 - t1};
  }
  /* (a0 + a1 u)^2 = (a0 + a1)(a0 - a1) + 2 a0 a1 u */
  CUZK_HDI fp2_t sqr() const { return {(c0 + c1) * (c0 - c1), (c0 * c1).dbl()}; }
  CUZK_HDI fp2_t operator*(const fp_t& s) const { return {c0 * s, c1 * s}; }

  CUZK_HDI fp2_t& operator+=(const fp2_t& b) { return *this = *this + b; }
  CUZK_HDI fp2_t& operator-=(const fp2_t& b) { return *this = *this - b; }
  CUZK_HDI fp2_t& operator*=(const fp2_t& b) { return *this = *this * b; }

  /* x^-1 = conj(x) / (c0^2 + c1^2); 0 maps to 0 */
  CUZK_HDI fp2_t inverse() const {
    fp_t t = (c0.sqr() + c1.sqr()).inverse();
    return {c0 * t, -(c1 * t)};
  }

  template <std::size_t K>
  CUZK_HDI fp2_t pow(const limbs32<K>& e) const {
    std::uint32_t w[K];
CUZK_UNROLL
    for (std::size_t i = 0; i < K; ++i) w[i] = e.w[i];
    fp2_t r = one();
CUZK_NO_UNROLL
    for (std::size_t i = 0; i < K; ++i) {
      const std::uint32_t top = w[K - 1];
CUZK_UNROLL
      for (std::size_t k = K - 1; k > 0; --k) w[k] = w[k - 1];
CUZK_NO_UNROLL
      for (int b = 31; b >= 0; --b) {
        r = r.sqr();
        if ((top >> b) & 1) r *= *this;
      }
    }
    return r;
  }
  CUZK_HDI fp2_t pow(std::uint64_t e) const { return pow(limbs32<2>{{std::uint32_t(e), std::uint32_t(e >> 32)}}); }
};
static_assert(sizeof(fp2_t) == 96, "the engine copies cuzk::ff::fp2_t arrays as they are");

}  // namespace cuzk::cuda
