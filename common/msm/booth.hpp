// Signed-digit windows of a scalar (radix-2^c Booth recoding), the digits
// Pippenger's bucket method sorts points by. Window w of k < 2^bits is
//   d_w = b_{wc-1} + sum_{j=0}^{c-2} b_{wc+j} 2^j - b_{wc+c-1} 2^(c-1),
// with b_i the bits of k (b_{-1} = 0). Then d_w is in [-2^(c-1), 2^(c-1)] and
// k = sum_w d_w 2^(wc): the top bit of each window becomes a borrow that the
// next window pays back through its b_{wc-1} term (the "carry into the next
// window"), so it is stateless — any window is read from c + 1 bits alone.
// |d_w| picks one of 2^(c-1) buckets, the sign says whether P or -P goes in.
// As blst's booth_encode and sppark's get_wval do.
#pragma once

#include <cstdint>

#include "ec/config.hpp"

namespace cuzk::msm {

constexpr unsigned max_window_bits = 20;

/* The bit length of the scalars of curve C: k < r < 2^bits (BLS12-381 255,
   BN254 254; both r < 2^256, so scalars are 4 limbs on either). */
template <class C>
inline constexpr unsigned scalar_bits = unsigned(C::fr_params::bits);

/* Windows needed for scalars below 2^bits: W c >= bits + 1, so the top
   window's own top bit (b_{Wc-1}, at or past bit `bits`) is 0 and nothing
   carries out. BLS12-381: ceil(256 / c); BN254: ceil(255 / c). */
constexpr unsigned window_count(unsigned c, unsigned bits) { return (bits + c) / c; }

/* bits [lo, lo + len) of k as an integer, len <= 32; bits past 255 read as 0 */
inline std::uint32_t bits_at(const ec::scalar_limbs_t& k, unsigned lo, unsigned len) {
  const unsigned limb = lo >> 6, shift = lo & 63;
  if (limb >= 4) return 0;
  std::uint64_t v = k[limb] >> shift;
  if (shift + len > 64 && limb + 1 < 4) v |= k[limb + 1] << (64 - shift);
  return std::uint32_t(v & ((std::uint64_t(1) << len) - 1));
}

/* d_w for window size c (1 <= c <= max_window_bits) */
inline std::int32_t booth_digit(const ec::scalar_limbs_t& k, unsigned w, unsigned c) {
  const unsigned lo = w * c;
  /* v = b_{wc+c-1} ... b_{wc} b_{wc-1}: the window and the bit below it */
  const std::uint32_t v = lo ? bits_at(k, lo - 1, c + 1) : bits_at(k, 0, c) << 1;
  std::int32_t d = std::int32_t((v + 1) >> 1); /* b_{wc-1} + sum_{j<c} b_{wc+j} 2^j */
  if (v >> c) d -= std::int32_t(1) << c;       /* - b_{wc+c-1} 2^c */
  return d;
}

}  // namespace cuzk::msm
