// Fp2 = Fp[u] / (u^2 + 1) on the device, for a curve C with p = 3 mod 4 (-1 a
// non-residue: BLS12-381 and BN254 alike): the same bytes as cuzk::ff::fp2<C>.
#pragma once

#include <cstdint>

#include "cuda/ff/fp.cuh"

namespace cuzk::cuda {

template <class C>
struct fp2 {
  using base_t = fp<C>;
  base_t c0, c1;  // c0 + c1 u

  CUZK_HDI static fp2 zero() { return fp2{}; }
  CUZK_HDI static fp2 one() { return {base_t::one(), base_t::zero()}; }
  CUZK_HDI bool is_zero() const {
    std::uint32_t acc = 0;
    CUZK_UNROLL
    for (std::size_t i = 0; i < base_t::n; ++i) acc |= c0.v[i] | c1.v[i];
    return acc == 0;
  }
  CUZK_HDI bool is_one() const { return c0.is_one() && c1.is_zero(); }
  CUZK_HDI friend bool operator==(const fp2& a, const fp2& b) { return a.c0 == b.c0 && a.c1 == b.c1; }
  CUZK_HDI friend bool operator!=(const fp2& a, const fp2& b) { return !(a == b); }

  CUZK_HDI friend fp2 operator+(const fp2& a, const fp2& b) { return {a.c0 + b.c0, a.c1 + b.c1}; }
  CUZK_HDI friend fp2 operator-(const fp2& a, const fp2& b) { return {a.c0 - b.c0, a.c1 - b.c1}; }
  CUZK_HDI fp2 operator-() const { return {-c0, -c1}; }
  CUZK_HDI fp2 dbl() const { return {c0.dbl(), c1.dbl()}; }
  CUZK_HDI fp2 cneg(bool flag) const { return {c0.cneg(flag), c1.cneg(flag)}; }

  /* Karatsuba, u^2 = -1: c0 = a0 b0 - a1 b1, c1 = (a0 + a1)(b0 + b1) - a0 b0 - a1 b1 */
  CUZK_HDI friend fp2 operator*(const fp2& a, const fp2& b) {
    base_t t0 = a.c0 * b.c0;                   /* t0 = a0 b0 */
    base_t t1 = a.c1 * b.c1;                   /* t1 = a1 b1 */
    base_t t2 = (a.c0 + a.c1) * (b.c0 + b.c1); /* t2 = (a0 + a1)(b0 + b1) */
    return {t0 - t1, t2 - t0 - t1};
  }
  /* (a0 + a1 u)^2 = (a0 + a1)(a0 - a1) + 2 a0 a1 u */
  CUZK_HDI fp2 sqr() const { return {(c0 + c1) * (c0 - c1), (c0 * c1).dbl()}; }
  CUZK_HDI fp2 operator*(const base_t& s) const { return {c0 * s, c1 * s}; }

  CUZK_HDI fp2& operator+=(const fp2& b) { return *this = *this + b; }
  CUZK_HDI fp2& operator-=(const fp2& b) { return *this = *this - b; }
  CUZK_HDI fp2& operator*=(const fp2& b) { return *this = *this * b; }

  /* x^-1 = conj(x) / (c0^2 + c1^2); 0 maps to 0 */
  CUZK_HDI fp2 inverse() const {
    base_t t = (c0.sqr() + c1.sqr()).inverse();
    return {c0 * t, -(c1 * t)};
  }

  template <std::size_t K>
  CUZK_HDI fp2 pow(const limbs32<K>& e) const {
    return pow_words(*this, e);
  }
  CUZK_HDI fp2 pow(std::uint64_t e) const { return pow(limbs32<2>{{std::uint32_t(e), std::uint32_t(e >> 32)}}); }
};
using fp2_t = fp2<curves::bls12_381>;
static_assert(sizeof(fp2_t) == 96 && sizeof(fp2<curves::bn254>) == 64,
              "the engine copies cuzk::ff::fp2<C> arrays as they are");

}  // namespace cuzk::cuda
