// Bucket accumulation of the device Pippenger (assignment: assign.cu).
//
// Assignment: for a group of windows w0 .. w0 + wn - 1, entry (j, i) of the
// key/value arrays is
//   key = j 2^c | |d_{i,w0+j}|,   value = base(i) 2 | [d < 0],
// stored at j n + i. Each window's n entries are radix sorted on the low c bits
// (the window bits are equal within a window), then run-length encoded as a
// whole; |d| = 0 is a bucket of its own that is never summed. Bucket (j, m) has
// dense index j (H + 1) + m, H = 2^(c-1).
//
// Accumulation, balanced whatever the bucket sizes. Level 0: thread t adds the
// entries [tL, (t + 1) L) of the sorted array into XYZZ sums, one per run of
// equal keys; a run that is a whole bucket is written into the bucket array,
// and the part of a bucket that other segments share is written as a "piece":
// bucket b's pieces, one per segment it meets, lie at first[b] (an exclusive
// scan of their counts). Later levels cut a bucket's pieces into chunks of L
// aligned to the bucket, one thread each, and leave the chunk sums of buckets
// of more than one chunk as the next level's pieces, until none is left.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "cuda/ec/affine.cuh"
#include "cuda/ec/xyzz.cuh"
#include "cuda/msm/plan.cuh"

namespace cuzk::cuda::msm::kernels {

/* A running sum in registers (G1's later levels and reduction) */
template <class F>
struct register_sum {
  xyzz<F> p;
  CUZK_HDI void reset() { p = xyzz<F>::identity(); }
  CUZK_HDI void add(const affine<F>& q) { p.add(q); }
  CUZK_HDI void add(const xyzz<F>& q) { p.add(q); }
  CUZK_HDI void add_from(const register_sum& r) { p.add(r.p); }
  CUZK_HDI xyzz<F> value() const { return p; }
};

/* Level 0's (G1 and G2) and G2's later levels: thread t's in shared memory,
   16-byte word k of its coordinates at s[k][t] (a warp's accesses are
   consecutive: no bank conflicts), so that the registers hold only the
   addition's temporaries. Callable on the host too (the emulation test runs
   level 0 through it, over an array of its own). */
template <class F, unsigned B>
struct shared_sum {
  static constexpr unsigned words = sizeof(F) / 16;
  static_assert(sizeof(F) % 16 == 0 && alignof(F) == 16);
  uint4 (*s)[B];
  unsigned t;
  /* the host copies bytes (no type punning for its optimizer to drop) */
  CUZK_HDI F get(unsigned i) const {
    F r;
#ifdef __CUDA_ARCH__
    auto* w = reinterpret_cast<uint4*>(&r);
    CUZK_UNROLL
    for (unsigned k = 0; k < words; ++k) w[k] = s[i * words + k][t];
#else
    for (unsigned k = 0; k < words; ++k) std::memcpy(reinterpret_cast<char*>(&r) + 16 * k, &s[i * words + k][t], 16);
#endif
    return r;
  }
  CUZK_HDI void put(unsigned i, const F& v) const {
#ifdef __CUDA_ARCH__
    const auto* w = reinterpret_cast<const uint4*>(&v);
    CUZK_UNROLL
    for (unsigned k = 0; k < words; ++k) s[i * words + k][t] = w[k];
#else
    for (unsigned k = 0; k < words; ++k)
      std::memcpy(&s[i * words + k][t], reinterpret_cast<const char*>(&v) + 16 * k, 16);
#endif
  }
  CUZK_HDI void set(const xyzz<F>& p) const {
    put(0, p.X);
    put(1, p.Y);
    put(2, p.ZZ);
    put(3, p.ZZZ);
  }
  CUZK_HDI void reset() const { set(xyzz<F>::identity()); }
  CUZK_HDI void add(const affine<F>& q) const { add_affine_to<F>(*this, q); }
  CUZK_HDI void add(const xyzz<F>& q) const { add_to<F>(*this, point_ref<F>{&q}); }
  CUZK_HDI void add_from(const shared_sum& r) const { add_to<F>(*this, r); }
  CUZK_HDI xyzz<F> value() const { return {get(0), get(1), get(2), get(3)}; }
};

/* Level 0, segment t: the entries [tL, (t + 1) L) of the n sorted (key, value) pairs */
template <class F, class Sum = register_sum<F>>
__host__ __device__ __forceinline__ void accumulate_segment(
    std::uint32_t t, const std::uint32_t* __restrict__ keys, const std::uint32_t* __restrict__ vals,
    const affine<F>* __restrict__ bases, std::uint32_t n, unsigned c, std::uint32_t h1, std::uint32_t L,
    const std::uint32_t* __restrict__ counts, const std::uint32_t* __restrict__ offsets,
    const std::uint32_t* __restrict__ first, xyzz<F>* __restrict__ buckets, xyzz<F>* __restrict__ pieces,
    Sum acc = {}) {
  const std::uint32_t begin = t * L, end = step::umin(n, begin + L), mask = (std::uint32_t(1) << c) - 1;
  /* the run [start, e) of key has its sum in acc */
  auto flush = [&](std::uint32_t key, std::uint32_t start, std::uint32_t e) {
    if (!(key & mask)) return; /* |d| = 0 */
    const std::uint32_t b = step::dense(key, c, h1), off = offsets[b];
    if (start == off && e == off + counts[b])
      buckets[b] = acc.value();
    else
      pieces[first[b] + t - off / L] = acc.value();
  };
  std::uint32_t key = keys[begin], start = begin;
  acc.reset();
  for (std::uint32_t e = begin; e < end; ++e) {
    const std::uint32_t k = keys[e];
    if (k != key) {
      flush(key, start, e);
      acc.reset();
      key = k;
      start = e;
    }
    if (k & mask) {
      const std::uint32_t v = vals[e];
      affine<F> p = bases[v >> 1];
      if (v & 1) p.y = -p.y; /* B += -P */
      acc.add(p);
    }
  }
  flush(key, start, end);
}

/* Level k > 0, chunk t: the bucket b with first[b] <= t < first[b + 1], chunk
   j = t - first[b] of it, pieces [offsets[b] + j L, offsets[b] + min((j + 1) L, counts[b])) */
template <class F, class Sum = register_sum<F>>
__host__ __device__ __forceinline__ void accumulate_chunk(std::uint32_t t, const xyzz<F>* __restrict__ pieces_in,
                                                          const std::uint32_t* __restrict__ counts,
                                                          const std::uint32_t* __restrict__ offsets,
                                                          const std::uint32_t* __restrict__ first, std::uint32_t nb,
                                                          std::uint32_t L, xyzz<F>* __restrict__ buckets,
                                                          xyzz<F>* __restrict__ pieces_out, Sum acc = {}) {
  const std::uint32_t b = step::owner(t, first, nb), j = t - first[b], chunks = first[b + 1] - first[b];
  const std::uint32_t begin = offsets[b] + j * L, end = step::umin(offsets[b] + counts[b], begin + L);
  acc.reset();
  for (std::uint32_t e = begin; e < end; ++e) acc.add(pieces_in[e]);
  if (chunks == 1)
    buckets[b] = acc.value();
  else
    pieces_out[t] = acc.value();
}

/* The *_shared kernels: the running sums in shared memory (shared_sum), the
   Fp multiplications outlined where that pays (xyzz.cuh: field_ops). Level 0
   of every group (G1: 4 blocks a SM, BLS12-381 128 registers and 24 KB of
   shared memory a block, no spills; G1 MSM 2^24 over copies on the H200 15%
   faster than with its sums in registers, BN254 2%) and
   G2's later levels; G2 at least 3 blocks a SM (BLS12-381: 168 registers, 48
   KB) or 4 (BN254). */
constexpr unsigned shared_sum_block = 128;
template <class F>
inline constexpr int shared_sum_min_blocks = sizeof(F) > 64 ? 3 : 4;
/* the XYZZ + XYZZ additions (accumulate_chunks, reduce.cuh's sum_runs) hold more: 2 blocks */
template <class F>
inline constexpr int shared_pair_min_blocks = 2;

template <class F>
__global__ void __launch_bounds__(shared_sum_block, shared_sum_min_blocks<F>)
    accumulate_segments_shared(const std::uint32_t* __restrict__ keys, const std::uint32_t* __restrict__ vals,
                               const affine<F>* __restrict__ bases, std::uint32_t n, unsigned c, std::uint32_t h1,
                               std::uint32_t L, const std::uint32_t* __restrict__ counts,
                               const std::uint32_t* __restrict__ offsets, const std::uint32_t* __restrict__ first,
                               xyzz<F>* __restrict__ buckets, xyzz<F>* __restrict__ pieces) {
  __shared__ uint4 sums[4 * sizeof(F) / 16][shared_sum_block];
  const std::uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (std::size_t(t) * L < n)
    accumulate_segment<F>(t, keys, vals, bases, n, c, h1, L, counts, offsets, first, buckets, pieces,
                          shared_sum<F, shared_sum_block>{sums, threadIdx.x});
}

template <class F>
__global__ void accumulate_chunks(const xyzz<F>* __restrict__ pieces_in, const std::uint32_t* __restrict__ counts,
                                  const std::uint32_t* __restrict__ offsets, const std::uint32_t* __restrict__ first,
                                  std::uint32_t nb, std::uint32_t L, xyzz<F>* __restrict__ buckets,
                                  xyzz<F>* __restrict__ pieces_out) {
  const std::uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < first[nb]) accumulate_chunk<F>(t, pieces_in, counts, offsets, first, nb, L, buckets, pieces_out);
}

template <class F>
__global__ void __launch_bounds__(shared_sum_block, shared_pair_min_blocks<F>)
    accumulate_chunks_shared(const xyzz<F>* __restrict__ pieces_in, const std::uint32_t* __restrict__ counts,
                             const std::uint32_t* __restrict__ offsets, const std::uint32_t* __restrict__ first,
                             std::uint32_t nb, std::uint32_t L, xyzz<F>* __restrict__ buckets,
                             xyzz<F>* __restrict__ pieces_out) {
  __shared__ uint4 sums[4 * sizeof(F) / 16][shared_sum_block];
  const std::uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < first[nb])
    accumulate_chunk<F>(t, pieces_in, counts, offsets, first, nb, L, buckets, pieces_out,
                        shared_sum<F, shared_sum_block>{sums, threadIdx.x});
}

}  // namespace cuzk::cuda::msm::kernels
