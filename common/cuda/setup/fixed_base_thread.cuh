// One thread's share of the setup's fixed-base products k_i G: the CPU's
// 8-bit windows (groth16/fixed_base.hpp, HAC §14.6.3)
//   k G = Σ_w byte_w(k) 2^(8w) G,   table[w 255 + d − 1] = d 2^(8w) G,
// summed in XYZZ, then `batch` results of the thread normalized to affine
// with one field inversion (Montgomery's trick). F is the field of the
// points (fp<C> or fp2<C>), S the scalar type (fr<C>). Portable: the host runs
// the same code in tests.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuda/ec/curves.cuh"
#include "cuda/ff/fr.cuh"

namespace cuzk::cuda::setup {

template <class F, class S>
__host__ __device__ __forceinline__ xyzz<F> fixed_base_mul(const affine<F>* table, const S& k) {
  static_assert(S::n == 8, "32-byte scalars: 32 windows of 8 bits");
  std::uint32_t c[8];
  k.to_canonical(c);
  xyzz<F> acc = xyzz<F>::identity();
#pragma unroll 1
  for (unsigned w = 0; w < 32; ++w) {
    const unsigned d = (c[w / 4] >> (8 * (w % 4))) & 0xff;
    if (d) acc.add(table[w * 255 + d - 1]);
  }
  return acc;
}

/* (x, y) = (X / ZZ, Y / ZZZ) given inv = 1 / (ZZ ZZZ): 1/ZZ = ZZZ inv, 1/ZZZ = ZZ inv */
template <class F>
__host__ __device__ __forceinline__ affine<F> to_affine_given(const xyzz<F>& p, const F& inv) {
  affine<F> a;
  a.x = p.X * p.ZZZ * inv;
  a.y = p.Y * p.ZZ * inv;
  return a;
}

/* out[i] = k[i] G for i = t, t + stride, ..., t + (batch − 1) stride below n */
template <class F, unsigned batch, class S>
__host__ __device__ void fixed_base_thread(const affine<F>* table, const S* k, affine<F>* out, std::size_t n,
                                           std::size_t t, std::size_t stride) {
  xyzz<F> p[batch];
  F before[batch]; /* before_j = Π_{l<j} ZZ_l ZZZ_l over the results that are not infinity */
  F prod = F::one();
  for (unsigned j = 0; j < batch; ++j) {
    const std::size_t i = t + j * stride;
    p[j] = i < n ? fixed_base_mul(table, k[i]) : xyzz<F>::identity();
    before[j] = prod;
    if (!p[j].is_identity()) prod *= p[j].ZZ * p[j].ZZZ;
  }
  F inv = prod.inverse(); /* (Π ZZ_l ZZZ_l)^-1 */
  for (unsigned j = batch; j-- > 0;) {
    const std::size_t i = t + j * stride;
    if (i >= n) continue;
    if (p[j].is_identity()) {
      out[i].x = F::zero();
      out[i].y = F::zero();
      continue;
    }
    const F d = p[j].ZZ * p[j].ZZZ;
    out[i] = to_affine_given(p[j], inv * before[j]); /* (ZZ_j ZZZ_j)^-1 = (Π_{l≤j})^-1 Π_{l<j} */
    inv *= d;                                        /* (Π_{l<j})^-1 */
  }
}

}  // namespace cuzk::cuda::setup
