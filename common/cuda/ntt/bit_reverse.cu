// launch_bit_reverse (launch.hpp): elements of 32 bytes, either curve's Fr.
#include "cuda/error.hpp"
#include "cuda/ntt/block.cuh"
#include "cuda/ntt/launch.hpp"

namespace cuzk::cuda::ntt::detail {
namespace {

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

}  // namespace

void launch_bit_reverse(void* d, unsigned log_n, cudaStream_t s) {
  const std::uint32_t n = std::uint32_t{1} << log_n, threads = 256;
  bit_reverse_kernel<<<(n + threads - 1) / threads, threads, 0, s>>>(static_cast<uint4*>(d), log_n);
  CUZK_CUDA_LAUNCHED();
}

}  // namespace cuzk::cuda::ntt::detail
