// Shifted copies of the bases (msm.hpp: shifts), made on the device: copy k
// from copy k - 1 a chunk of points at a time, by
//   shift_point    c doublings in XYZZ, 2^c P (P at infinity stays there)
//   to_affine_run  a run of T points to affine with one inversion, by
//                  Montgomery's trick over d = ZZ ZZZ:
//                    a_j = d_lo ... d_j,  u = 1 / a_hi, then from the top
//                    1 / d_j = u a_{j-1},  u <- u d_j;
//                    x = X / ZZ = X ZZZ / d,  y = Y / ZZZ = Y ZZ / d
// (per-thread steps, run by the host emulation test too).
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuda/ec/affine.cuh"
#include "cuda/ec/xyzz.cuh"
#include "cuda/msm/plan.cuh"

namespace cuzk::cuda::msm::kernels {

template <class F>
__host__ __device__ __forceinline__ void shift_point(std::uint32_t i, const affine<F>* __restrict__ src, unsigned c,
                                                     xyzz<F>* __restrict__ out) {
  xyzz<F> r = xyzz<F>::dbl_affine(src[i]); /* (0, 0) and y = 0 give infinity */
  for (unsigned j = 1; j < c; ++j) r = r.dbl();
  out[i] = r;
}

template <class F>
__host__ __device__ __forceinline__ void to_affine_run(std::uint32_t t, const xyzz<F>* __restrict__ in,
                                                       F* __restrict__ prefix, std::uint32_t n, std::uint32_t T,
                                                       affine<F>* __restrict__ out) {
  const std::uint32_t lo = t * T, hi = step::umin(n, lo + T);
  F a = F::one();
  for (std::uint32_t j = lo; j < hi; ++j) {
    if (!in[j].is_identity()) a = a * (in[j].ZZ * in[j].ZZZ);
    prefix[j] = a;
  }
  F u = a.inverse();
  for (std::uint32_t j = hi; j-- > lo;) {
    const xyzz<F> p = in[j];
    if (p.is_identity()) {
      out[j] = affine<F>::infinity();
      continue;
    }
    const F inv_d = j > lo ? u * prefix[j - 1] : u; /* 1 / d_j */
    u = u * (p.ZZ * p.ZZZ);
    out[j] = {p.X * (inv_d * p.ZZZ), p.Y * (inv_d * p.ZZ)};
  }
}

template <class F>
__global__ void shift_points(const affine<F>* __restrict__ src, std::uint32_t n, unsigned c,
                             xyzz<F>* __restrict__ out) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) shift_point<F>(i, src, c, out);
}

template <class F>
__global__ void to_affine_runs(const xyzz<F>* __restrict__ in, F* __restrict__ prefix, std::uint32_t n, std::uint32_t T,
                               affine<F>* __restrict__ out) {
  const std::uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  if (std::size_t(t) * T < n) to_affine_run<F>(t, in, prefix, n, T, out);
}

}  // namespace cuzk::cuda::msm::kernels
