// Bucket reduction and plain sums on the device (per-thread steps callable on
// the host too, for the emulation test).
//
// A window's sum S = sum_{m=1}^{H} m B_m, by segments of s buckets, one thread
// each: over m in [js + 1, (j + 1) s], from the top down,
//   R <- R + B_m,  T <- T + R   gives   R_j = sum B_m,  T_j = sum (m - js) B_m,
// so S = sum_j T_j + s sum_j j R_j. The T_j are added by sum_runs (U_0); the
// last sum is the same problem over the R_j (j < segs: "buckets" 1 .. segs - 1
// of the next level, R_0 weighing nothing), until one segment is left. Then
//   S = U_0 + s (U_1 + s (U_2 + ...))   (levels(), on the host)
// Two additions a bucket, and 2/s more a level above.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuda/ec/affine.cuh"
#include "cuda/ec/xyzz.cuh"
#include "cuda/msm/buckets.cuh"
#include "cuda/msm/plan.cuh"

namespace cuzk::cuda::msm::kernels {

/* share t of wn windows of h buckets b[1 .. h] at stride h + 1 (index 0 unused), ceil(h / s) shares a window:
   T_j into t_out[t], R_j into r_out[t] (window w's at w segs: the next level's buckets, stride segs) */
template <class F, class Sum = register_sum<F>>
__host__ __device__ __forceinline__ void window_share(std::uint32_t t, const xyzz<F>* __restrict__ buckets,
                                                      std::uint32_t h, std::uint32_t s, xyzz<F>* __restrict__ t_out,
                                                      xyzz<F>* __restrict__ r_out, Sum R = {}, Sum T = {}) {
  const std::uint32_t segs = (h + s - 1) / s, w = t / segs, j = t % segs;
  const xyzz<F>* b = buckets + std::size_t(w) * (h + 1);
  const std::uint32_t lo = j * s + 1, hi = step::umin(h, (j + 1) * s);
  R.reset();
  T.reset();
  for (std::uint32_t m = hi; m >= lo; --m) {
    R.add(b[m]);   /* R = sum_{m' >= m} B_m' */
    T.add_from(R); /* T = sum (m' - js) B_m' */
  }
  t_out[t] = T.value();
  r_out[t] = R.value();
}

/* the levels of a window of h buckets in segments of s: 1 + those of its segs - 1 "buckets" of R_j */
__host__ __device__ __forceinline__ unsigned reduce_levels(std::uint32_t h, std::uint32_t s) {
  unsigned n = 1;
  for (std::uint32_t segs = (h + s - 1) / s; segs > 1; segs = (segs - 1 + s - 1) / s) ++n;
  return n;
}

/* S = sum_l s^l U_l = U_0 + s (U_1 + s (...)), on the host, for a jacobian J */
template <class J>
J combine_levels(const J* u, unsigned levels, std::uint32_t s) {
  J r = u[levels - 1];
  for (unsigned l = levels - 1; l-- > 0;) {
    J m = r; /* r s, left to right */
    int top = 31;
    while (!((s >> top) & 1)) --top;
    for (int i = top - 1; i >= 0; --i) {
      m = m.dbl();
      if ((s >> i) & 1) m = m + r;
    }
    r = m + u[l];
  }
  return r;
}

/* run r of segs runs of len points, part q: out[r][q] = sum in[r][qK .. qK + K) */
template <class F, class Sum = register_sum<F>>
__host__ __device__ __forceinline__ void sum_run(std::uint32_t t, const xyzz<F>* __restrict__ in, std::uint32_t len,
                                                 std::uint32_t K, xyzz<F>* __restrict__ out, Sum acc = {}) {
  const std::uint32_t out_len = (len + K - 1) / K, r = t / out_len, q = t % out_len;
  const xyzz<F>* p = in + std::size_t(r) * len;
  const std::uint32_t end = step::umin(len, (q + 1) * K);
  acc.reset();
  for (std::uint32_t e = q * K; e < end; ++e) acc.add(p[e]);
  out[t] = acc.value();
}

/* out[q] = sum_{i in [qK, qK + K)} bases[idx ? idx[i] - first : i] */
template <class F>
__host__ __device__ __forceinline__ void sum_base(std::uint32_t q, const affine<F>* __restrict__ bases,
                                                  const std::uint32_t* __restrict__ idx, std::uint32_t first,
                                                  std::uint32_t n, std::uint32_t K, xyzz<F>* __restrict__ out) {
  const std::uint32_t end = step::umin(n, (q + 1) * K);
  xyzz<F> acc = xyzz<F>::identity();
  for (std::uint32_t i = q * K; i < end; ++i) acc.add(bases[idx ? idx[i] - first : i]);
  out[q] = acc;
}

template <class F>
__global__ void window_shares(const xyzz<F>* __restrict__ buckets, std::uint32_t wn, std::uint32_t h, std::uint32_t s,
                              xyzz<F>* __restrict__ t_out, xyzz<F>* __restrict__ r_out) {
  const std::uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < wn * ((h + s - 1) / s)) window_share<F>(t, buckets, h, s, t_out, r_out);
}

template <class F>
__global__ void sum_runs(const xyzz<F>* __restrict__ in, std::uint32_t len, std::uint32_t segs, std::uint32_t K,
                         xyzz<F>* __restrict__ out) {
  const std::uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < segs * ((len + K - 1) / K)) sum_run<F>(t, in, len, K, out);
}

template <class F>
__global__ void sum_bases(const affine<F>* __restrict__ bases, const std::uint32_t* __restrict__ idx,
                          std::uint32_t first, std::uint32_t n, std::uint32_t K, xyzz<F>* __restrict__ out) {
  const std::uint32_t q = blockIdx.x * blockDim.x + threadIdx.x;
  if (q < (n + K - 1) / K) sum_base<F>(q, bases, idx, first, n, K, out);
}

/* G2's (buckets.cuh: shared_sum). window_shares keeps two sums: blocks of 64
   threads, 48 KB (BLS12-381) or 32 KB (BN254), 4 a SM (255 registers) */
constexpr unsigned share_block = shared_sum_block / 2;
template <class F>
__global__ void __launch_bounds__(share_block, 4)
    window_shares_shared(const xyzz<F>* __restrict__ buckets, std::uint32_t wn, std::uint32_t h, std::uint32_t s,
                         xyzz<F>* __restrict__ t_out, xyzz<F>* __restrict__ r_out) {
  __shared__ uint4 sums[2][4 * sizeof(F) / 16][share_block];
  const std::uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < wn * ((h + s - 1) / s))
    window_share<F>(t, buckets, h, s, t_out, r_out, shared_sum<F, share_block>{sums[0], threadIdx.x},
                    shared_sum<F, share_block>{sums[1], threadIdx.x});
}

template <class F>
__global__ void __launch_bounds__(shared_sum_block, shared_pair_min_blocks<F>)
    sum_runs_shared(const xyzz<F>* __restrict__ in, std::uint32_t len, std::uint32_t segs, std::uint32_t K,
                    xyzz<F>* __restrict__ out) {
  __shared__ uint4 sums[4 * sizeof(F) / 16][shared_sum_block];
  const std::uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < segs * ((len + K - 1) / K))
    sum_run<F>(t, in, len, K, out, shared_sum<F, shared_sum_block>{sums, threadIdx.x});
}

}  // namespace cuzk::cuda::msm::kernels
