// The kernels of fixed_base_kernel.hpp, for the groups of a curve C; each
// translation unit made from fixed_base_kernel.cu.in instantiates one curve.
#pragma once

#include "cuda/error.hpp"
#include "cuda/setup/fixed_base_kernel.hpp"
#include "cuda/setup/fixed_base_thread.cuh"

namespace cuzk::cuda::setup {

namespace kernels {

/* results per thread sharing one inversion (≈ 450 multiplications against
   ≈ 300 for one product's ≤ 32 additions) */
constexpr unsigned batch = 8;
constexpr unsigned block = 128;

template <class F, class S>
__global__ void __launch_bounds__(block)
    fixed_base_kernel(const affine<F>* table, const S* k, affine<F>* out, std::size_t n) {
  const std::size_t t = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  fixed_base_thread<F, batch>(table, k, out, n, t, stride);
}

template <class F, class S>
void launch(const void* table, const void* k, void* out, std::size_t n, cudaStream_t s) {
  if (n == 0) return;
  const std::size_t threads = (n + batch - 1) / batch;
  const unsigned blocks = unsigned((threads + block - 1) / block);
  fixed_base_kernel<F, S><<<blocks, block, 0, s>>>(static_cast<const affine<F>*>(table), static_cast<const S*>(k),
                                                   static_cast<affine<F>*>(out), n);
  CUZK_CUDA_LAUNCHED();
}

}  // namespace kernels

template <class C>
void launch_fixed_base_g1(const void* table, const void* k, void* out, std::size_t n, cudaStream_t s) {
  static_assert(sizeof(fr<C>) == scalar_bytes && sizeof(g1_affine<C>) == g1_point_bytes<C>);
  kernels::launch<fp<C>, fr<C>>(table, k, out, n, s);
}
template <class C>
void launch_fixed_base_g2(const void* table, const void* k, void* out, std::size_t n, cudaStream_t s) {
  static_assert(sizeof(g2_affine<C>) == g2_point_bytes<C>);
  kernels::launch<fp2<C>, fr<C>>(table, k, out, n, s);
}

}  // namespace cuzk::cuda::setup
