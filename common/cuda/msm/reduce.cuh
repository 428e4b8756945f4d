// Bucket reduction and plain sums on the device (per-thread steps callable on
// the host too, for the emulation test).
//
// A window's sum S = sum_{m=1}^{H} m B_m, by segments of s buckets, one thread
// each: over m in [js + 1, (j + 1) s], from the top down,
//   R <- R + B_m,  T <- T + R   gives   R = sum B_m,  T = sum (m - js) B_m,
// so the segment's share is T + js R (js R by double-and-add); the shares are
// then added by sum_runs.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuda/ec/affine.cuh"
#include "cuda/ec/xyzz.cuh"
#include "cuda/msm/plan.cuh"

namespace cuzk::cuda::msm::kernels {

/* k P, k > 0, left to right */
template <class F>
__host__ __device__ __forceinline__ xyzz<F> times(const xyzz<F>& p, std::uint32_t k) {
  int top = 31;
  while (!((k >> top) & 1)) --top;
  xyzz<F> r = p;
  for (int i = top - 1; i >= 0; --i) {
    r = r.dbl();
    if ((k >> i) & 1) r.add(p);
  }
  return r;
}

/* share t of wn windows of h + 1 buckets (index 0 unused), ceil(h / s) shares a window */
template <class F>
__host__ __device__ __forceinline__ void window_share(std::uint32_t t, const xyzz<F>* __restrict__ buckets,
                                                      std::uint32_t h, std::uint32_t s, xyzz<F>* __restrict__ out) {
  const std::uint32_t segs = (h + s - 1) / s, w = t / segs, j = t % segs;
  const xyzz<F>* b = buckets + std::size_t(w) * (h + 1);
  const std::uint32_t lo = j * s + 1, hi = step::umin(h, (j + 1) * s);
  xyzz<F> R = xyzz<F>::identity(), T = xyzz<F>::identity();
  for (std::uint32_t m = hi; m >= lo; --m) {
    R.add(b[m]);  /* R = sum_{m' >= m} B_m' */
    T.add(R);     /* T = sum (m' - js) B_m' */
  }
  if (j > 0 && !R.is_identity()) T.add(times(R, j * s));  /* + js R */
  out[t] = T;
}

/* run r of segs runs of len points, part q: out[r][q] = sum in[r][qK .. qK + K) */
template <class F>
__host__ __device__ __forceinline__ void sum_run(std::uint32_t t, const xyzz<F>* __restrict__ in, std::uint32_t len,
                                                 std::uint32_t K, xyzz<F>* __restrict__ out) {
  const std::uint32_t out_len = (len + K - 1) / K, r = t / out_len, q = t % out_len;
  const xyzz<F>* p = in + std::size_t(r) * len;
  const std::uint32_t end = step::umin(len, (q + 1) * K);
  xyzz<F> acc = xyzz<F>::identity();
  for (std::uint32_t e = q * K; e < end; ++e) acc.add(p[e]);
  out[t] = acc;
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
__global__ void window_shares(const xyzz<F>* __restrict__ buckets, std::uint32_t wn, std::uint32_t h,
                              std::uint32_t s, xyzz<F>* __restrict__ out) {
  const std::uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < wn * ((h + s - 1) / s)) window_share<F>(t, buckets, h, s, out);
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

}  // namespace cuzk::cuda::msm::kernels
