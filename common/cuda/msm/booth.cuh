// Signed-digit windows on the device, the same recoding as the CPU's
// msm/booth.hpp: for k < 2^bits (8 little-endian 32-bit limbs) and window w
// of c bits,
//   d_w = b_{wc-1} + sum_{j=0}^{c-2} b_{wc+j} 2^j - b_{wc+c-1} 2^(c-1),
// so d_w in [-2^(c-1), 2^(c-1)] and k = sum_w d_w 2^(wc); the top bit of a
// window is a borrow the next window repays through its b_{wc-1} term.
// msm::window_count(c, bits) windows suffice (the last one's top bit is at or
// past bit `bits`): ceil(256 / c) on BLS12-381, ceil(255 / c) on BN254.
#pragma once

#include <cstdint>

#include "msm/booth.hpp"

namespace cuzk::cuda::msm {

/* bits [lo, lo + len) of k, len <= 31; bits past 255 read as 0 */
__host__ __device__ __forceinline__ std::uint32_t bits_at(const std::uint32_t k[8], unsigned lo, unsigned len) {
  const unsigned limb = lo >> 5;
  if (limb >= 8) return 0;
  std::uint64_t v = k[limb];
  if (limb + 1 < 8) v |= std::uint64_t(k[limb + 1]) << 32;
  return std::uint32_t(v >> (lo & 31)) & ((std::uint32_t(1) << len) - 1);
}

__host__ __device__ __forceinline__ std::int32_t booth_digit(const std::uint32_t k[8], unsigned w, unsigned c) {
  const unsigned lo = w * c;
  /* v = b_{wc+c-1} ... b_{wc} b_{wc-1} */
  const std::uint32_t v = lo ? bits_at(k, lo - 1, c + 1) : bits_at(k, 0, c) << 1;
  std::int32_t d = std::int32_t((v + 1) >> 1); /* b_{wc-1} + sum_{j<c} b_{wc+j} 2^j */
  if (v >> c) d -= std::int32_t(1) << c;       /* - b_{wc+c-1} 2^c */
  return d;
}

}  // namespace cuzk::cuda::msm
