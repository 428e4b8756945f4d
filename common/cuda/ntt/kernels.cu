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
namespace {

struct device_exec {
  fr_t x[8];

  template <class Fn>
  __device__ __forceinline__ void threads(Fn&& fn) {
    fn(threadIdx.x, x);
  }
  __device__ __forceinline__ void sync() { __syncthreads(); }
};

/* 256 threads (2^11 elements) at two blocks per SM: up to 128 registers each */
template <unsigned S>
__global__ void __launch_bounds__(1u << (block_log - reg_log), 2) pass_kernel(const __grid_constant__ pass ps) {
  extern __shared__ std::uint32_t sm[];
  device_exec ex;
  run_block<fr_t, S>(ex, ps, blockIdx.x, sm);
}

__global__ void bit_reverse_kernel(uint4* d, unsigned log_n) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >> log_n) return;
  const std::uint32_t j = reverse_bits(i, log_n);
  if (i >= j) return;
  const uint4 a0 = d[2 * std::size_t(i)], a1 = d[2 * std::size_t(i) + 1];
  d[2 * std::size_t(i)] = d[2 * std::size_t(j)];
  d[2 * std::size_t(i) + 1] = d[2 * std::size_t(j) + 1];
  d[2 * std::size_t(j)] = a0;
  d[2 * std::size_t(j) + 1] = a1;
}

__global__ void powers_kernel(void* out, std::size_t count, const factor_fn f) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count) store<fr_t>(out, std::uint32_t(i), factor_at<fr_t>(f, std::uint32_t(i)));
}

template <unsigned S>
void launch_as(const pass& ps, cudaStream_t s) {
  const auto kernel = pass_kernel<S>;
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

}  // namespace

void launch(const pass& ps, cudaStream_t s) {
  unsigned set = 0;
  for (unsigned i = 0; i < ps.n_ops; ++i) {
    const op& o = ps.ops[i];
    if (o.kind == op_kind::dif) set |= o.inverse ? dif_inv : dif_fwd;
    if (o.kind == op_kind::dit) set |= o.inverse ? dit_inv : dit_fwd;
  }
  switch (set) {
    case 0:
    case dif_fwd: return launch_as<dif_fwd>(ps, s);
    case dif_inv: return launch_as<dif_inv>(ps, s);
    case dit_fwd: return launch_as<dit_fwd>(ps, s);
    case dit_inv: return launch_as<dit_inv>(ps, s);
    case dif_inv | dit_fwd: return launch_as<dif_inv | dit_fwd>(ps, s);
    default: throw std::logic_error("ntt: no kernel for stage set " + std::to_string(set));
  }
}

void launch_bit_reverse(void* d, unsigned log_n, cudaStream_t s) {
  const std::uint32_t n = std::uint32_t{1} << log_n, threads = 256;
  bit_reverse_kernel<<<(n + threads - 1) / threads, threads, 0, s>>>(static_cast<uint4*>(d), log_n);
  CUZK_CUDA_LAUNCHED();
}

void launch_powers(void* out, std::size_t count, const factor_fn& f, cudaStream_t s) {
  const unsigned threads = 256;
  powers_kernel<<<unsigned((count + threads - 1) / threads), threads, 0, s>>>(out, count, f);
  CUZK_CUDA_LAUNCHED();
}

}  // namespace cuzk::cuda::ntt::detail
