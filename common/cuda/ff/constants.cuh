// The configs of the device fields of a curve C, derived at compile time from
// the 64-bit limbs of C::fp_params and C::fr_params (common/curves/bls12_381_field_constants.hpp
// for BLS12-381, common/curves/bn254_constants.hpp for BN254, where each value
// is written once and checked): every 64-bit limb becomes two 32-bit limbs,
// low half first. Nothing is retyped here.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "cuda/ff/carry_chain.cuh"
#include "curves/bls12_381.hpp"
#include "curves/bn254.hpp"

namespace cuzk::cuda {

namespace detail {

template <std::size_t N>
CUZK_HD constexpr limbs32<2 * N> split(const std::array<std::uint64_t, N>& a) {
  limbs32<2 * N> r{};
  for (std::size_t i = 0; i < N; ++i) {
    r.w[2 * i] = std::uint32_t(a[i]);
    r.w[2 * i + 1] = std::uint32_t(a[i] >> 32);
  }
  return r;
}

/* a - k for a small k, with the borrow through the limbs */
template <std::size_t N>
CUZK_HD constexpr limbs32<N> minus(limbs32<N> a, std::uint32_t k) {
  for (std::size_t i = 0; i < N && k; ++i) {
    const std::uint32_t borrow = a.w[i] < k;
    a.w[i] -= k;
    k = borrow;
  }
  return a;
}

/* F's config (mont.cuh) from the 64-bit parameters Q of cuzk::ff */
template <class Q>
struct config_from {
  static constexpr std::size_t n = 2 * Q::n_limbs;
  static constexpr std::size_t bits = Q::bits;
  /* -m^-1 mod 2^32: the low half of -m^-1 mod 2^64 */
  static constexpr std::uint32_t inv = std::uint32_t(Q::inv);
  /* m */
  CUZK_HD static constexpr limbs32<n> modulus() { return split(Q::modulus); }
  /* R = 2^(32n) mod m, the same as 2^(64 n/2) mod m: one in Montgomery form */
  CUZK_HD static constexpr limbs32<n> one() { return split(Q::r1); }
  /* R^2 mod m */
  CUZK_HD static constexpr limbs32<n> r2() { return split(Q::r2); }
  /* m - 2, the exponent of Fermat's inverse */
  CUZK_HD static constexpr limbs32<n> exponent() { return minus(modulus(), 2); }

  static_assert(std::uint32_t(Q::modulus[0]) * inv == 0xffffffffu, "inv = -m^-1 mod 2^32");
  static_assert(Q::modulus[Q::n_limbs - 1] >> 63 == 0, "m < R/2");
};

}  // namespace detail

/* Fr, the scalar field r: 8 limbs (BLS12-381: 255 bits; BN254: 254) */
template <class C>
struct fr_config : detail::config_from<typename C::fr_params> {};
/* Fp, the base field p: BLS12-381 381 bits, 12 limbs; BN254 254 bits, 8 limbs */
template <class C>
struct fp_config : detail::config_from<typename C::fp_params> {};

}  // namespace cuzk::cuda
