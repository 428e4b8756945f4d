// The kernels of the NTT passes over the Fr of a curve C (launch.hpp); each
// translation unit made from kernels.cu.in instantiates them for one curve.
#pragma once

#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>

#include "cuda/error.hpp"
#include "cuda/ff/fr.cuh"
#include "cuda/ntt/block.cuh"
#include "cuda/ntt/launch.hpp"

namespace cuzk::cuda::ntt::detail {
namespace kernels {

template <class F>
struct device_exec {
  F x[8];

  template <class Fn>
  __device__ __forceinline__ void threads(Fn&& fn) {
    fn(threadIdx.x, x);
  }
  __device__ __forceinline__ void sync() { __syncthreads(); }
};

/* 256 threads (2^11 elements) at Blocks blocks per SM: up to 2^16 / (256 Blocks) registers each (128 at the
   default of two, measured best on the H200: ntt_bench's BM_ntt_occupancy) */
inline constexpr unsigned default_blocks_per_sm = 2;
template <class F, unsigned S, unsigned Blocks = default_blocks_per_sm>
__global__ void __launch_bounds__(1u << (block_log - reg_log), Blocks) pass_kernel(const __grid_constant__ pass ps) {
  extern __shared__ std::uint32_t sm[];
  device_exec<F> ex;
  run_block<F, S>(ex, ps, blockIdx.x, sm);
}

template <class F>
__global__ void powers_kernel(void* out, std::size_t count, const factor_fn f) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count) store<F>(out, std::uint32_t(i), factor_at<F>(f, std::uint32_t(i)));
}

template <class F, unsigned S, unsigned Blocks>
void launch_as(const pass& ps, cudaStream_t s) {
  const auto kernel = pass_kernel<F, S, Blocks>;
  const std::size_t bytes = ps.shared_bytes();
  {  // above 48 KiB a kernel must ask, once per device
    static std::mutex mu;
    static std::set<int> asked;
    int dev = 0;
    CUZK_CUDA_OK(cudaGetDevice(&dev));
    std::lock_guard lock(mu);
    if (asked.insert(dev).second) {
      const pass full = [] {
        pass p;
        p.b = block_log;
        return p;
      }();
      CUZK_CUDA_OK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(full.shared_bytes())));
    }
  }
  kernel<<<ps.blocks(), ps.threads(), bytes, s>>>(ps);
  CUZK_CUDA_LAUNCHED();
}

}  // namespace kernels

/* one pass with the pass kernel of Blocks blocks per SM */
template <class C, unsigned Blocks = kernels::default_blocks_per_sm>
void launch_with(const pass& ps, cudaStream_t s) {
  using F = fr<C>;
  unsigned set = 0;
  for (unsigned i = 0; i < ps.n_ops; ++i) {
    const op& o = ps.ops[i];
    if (o.kind == op_kind::dif) set |= o.inverse ? dif_inv : dif_fwd;
    if (o.kind == op_kind::dit) set |= o.inverse ? dit_inv : dit_fwd;
  }
  switch (set) {
    case 0:
    case dif_fwd:
      return kernels::launch_as<F, dif_fwd, Blocks>(ps, s);
    case dif_inv:
      return kernels::launch_as<F, dif_inv, Blocks>(ps, s);
    case dit_fwd:
      return kernels::launch_as<F, dit_fwd, Blocks>(ps, s);
    case dit_inv:
      return kernels::launch_as<F, dit_inv, Blocks>(ps, s);
    case dif_inv | dit_fwd:
      return kernels::launch_as<F, dif_inv | dit_fwd, Blocks>(ps, s);
    default:
      throw std::logic_error("ntt: no kernel for stage set " + std::to_string(set));
  }
}

template <class C>
void launch(const pass& ps, cudaStream_t s) {
  launch_with<C>(ps, s);
}

template <class C>
void launch_powers(void* out, std::size_t count, const factor_fn& f, cudaStream_t s) {
  const unsigned threads = 256;
  kernels::powers_kernel<fr<C>><<<unsigned((count + threads - 1) / threads), threads, 0, s>>>(out, count, f);
  CUZK_CUDA_LAUNCHED();
}

}  // namespace cuzk::cuda::ntt::detail
