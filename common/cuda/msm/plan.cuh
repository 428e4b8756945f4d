// The field-independent per-thread steps of the device Pippenger, written as
// __host__ __device__ functions of the thread index so that a host emulation
// (tests/gpu/msm) runs the very code the kernels run. Layout: buckets.cuh.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuda/msm/booth.cuh"

namespace cuzk::cuda::msm::step {

__host__ __device__ __forceinline__ std::uint32_t umin(std::uint32_t a, std::uint32_t b) { return a < b ? a : b; }

/* scalar i, windows w0 .. w0 + wn - 1 (w0 a multiple of K), the bases in K
   copies of `stride` points, copy k = 2^(kc) P: window w = vK + k takes
   copy k in virtual window v, so
     key = (v - w0 / K) 2^c | |d|,   value = (k stride + base) 2 | [d < 0],
   at j n + i for w = w0 + j. K = 1 is plain Pippenger (v = w). */
__host__ __device__ __forceinline__ void booth_keys(std::uint32_t i, const std::uint32_t limbs[8],
                                                    const std::uint32_t* idx, std::uint32_t first, std::uint32_t n,
                                                    unsigned c, unsigned w0, unsigned wn, unsigned K,
                                                    std::uint32_t stride, std::uint32_t* keys, std::uint32_t* vals) {
  const std::uint32_t base = idx ? idx[i] - first : i;
  for (unsigned j = 0; j < wn; ++j) {
    const unsigned w = w0 + j, v = j / K, k = w % K;
    const std::int32_t d = booth_digit(limbs, w, c);
    const std::uint32_t mag = std::uint32_t(d < 0 ? -d : d);
    keys[std::size_t(j) * n + i] = (v << c) | mag;
    vals[std::size_t(j) * n + i] = ((k * stride + base) << 1) | std::uint32_t(d < 0);
  }
}

/* the dense bucket index of a key: j (2^(c-1) + 1) + |d| */
__host__ __device__ __forceinline__ std::uint32_t dense(std::uint32_t key, unsigned c, std::uint32_t h1) {
  return (key >> c) * h1 + (key & ((std::uint32_t(1) << c) - 1));
}

/* run r of RunLengthEncode: counts[dense(key)] = its length */
__host__ __device__ __forceinline__ void scatter_run(std::uint32_t r, const std::uint32_t* unique,
                                                     const std::uint32_t* lengths, unsigned c, std::uint32_t h1,
                                                     std::uint32_t* counts) {
  counts[dense(unique[r], c, h1)] = lengths[r];
}

/* bucket b <= nb, level 0: the segments of L entries it meets, if more than one (never for |d| = 0) */
__host__ __device__ __forceinline__ void segment_pieces(std::uint32_t b, const std::uint32_t* counts,
                                                        const std::uint32_t* offsets, std::uint32_t nb,
                                                        std::uint32_t h1, std::uint32_t L, std::uint32_t* pieces) {
  std::uint32_t p = 0;
  if (b < nb && b % h1 && counts[b]) {
    const std::uint32_t lo = offsets[b] / L, hi = (offsets[b] + counts[b] - 1) / L;
    if (hi > lo) p = hi - lo + 1;
  }
  pieces[b] = p;
}

/* bucket b <= nb, level k > 0: its pieces (if more than one) in ceil(pieces / L) chunks */
__host__ __device__ __forceinline__ void next_chunks(std::uint32_t b, const std::uint32_t* prev_chunks,
                                                     const std::uint32_t* prev_first, std::uint32_t nb, std::uint32_t L,
                                                     std::uint32_t* counts, std::uint32_t* offsets,
                                                     std::uint32_t* chunks) {
  const std::uint32_t cnt = b < nb && prev_chunks[b] > 1 ? prev_chunks[b] : 0;
  counts[b] = cnt;
  offsets[b] = prev_first[b];
  chunks[b] = (cnt + L - 1) / L;
}

/* the last b < nb with first[b] <= t (first non-decreasing, first[0] = 0) */
__host__ __device__ __forceinline__ std::uint32_t owner(std::uint32_t t, const std::uint32_t* first, std::uint32_t nb) {
  std::uint32_t lo = 0, hi = nb - 1;
  while (lo < hi) {
    const std::uint32_t mid = (lo + hi + 1) / 2;
    if (first[mid] <= t)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

}  // namespace cuzk::cuda::msm::step
