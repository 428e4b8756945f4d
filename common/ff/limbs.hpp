// Fixed-width unsigned integers as little-endian 64-bit limbs: the carry
// chains under the Montgomery fields.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace cuzk::ff::limbs {

using u64 = std::uint64_t;
using u128 = unsigned __int128;

template <std::size_t N>
using big = std::array<u64, N>;

/* r = a + b, returns the carry out */
template <std::size_t N>
inline u64 add(big<N>& r, const big<N>& a, const big<N>& b) {
  u64 carry = 0;
  for (std::size_t i = 0; i < N; ++i) {
    u128 s = (u128)a[i] + b[i] + carry;
    r[i] = (u64)s;
    carry = (u64)(s >> 64);
  }
  return carry;
}

/* r = a - b, returns the borrow out (0 or 1) */
template <std::size_t N>
inline u64 sub(big<N>& r, const big<N>& a, const big<N>& b) {
  u64 borrow = 0;
  for (std::size_t i = 0; i < N; ++i) {
    u128 d = (u128)a[i] - b[i] - borrow;
    r[i] = (u64)d;
    borrow = (u64)(d >> 64) & 1;
  }
  return borrow;
}

template <std::size_t N>
inline bool is_zero(const big<N>& a) {
  u64 acc = 0;
  for (u64 w : a) acc |= w;
  return acc == 0;
}

/* a < b */
template <std::size_t N>
inline bool less(const big<N>& a, const big<N>& b) {
  for (std::size_t i = N; i-- > 0;)
    if (a[i] != b[i]) return a[i] < b[i];
  return false;
}

/* a >>= 1, with top_bit shifted in at the most significant position */
template <std::size_t N>
inline void shr1(big<N>& a, u64 top_bit = 0) {
  for (std::size_t i = 0; i + 1 < N; ++i) a[i] = (a[i] >> 1) | (a[i + 1] << 63);
  a[N - 1] = (a[N - 1] >> 1) | (top_bit << 63);
}

template <std::size_t N>
inline bool bit(const big<N>& a, std::size_t i) {
  return (a[i / 64] >> (i % 64)) & 1;
}

template <std::size_t N>
inline std::size_t bit_length(const big<N>& a) {
  for (std::size_t i = N; i-- > 0;)
    if (a[i]) return 64 * i + 64 - __builtin_clzll(a[i]);
  return 0;
}

}  // namespace cuzk::ff::limbs
