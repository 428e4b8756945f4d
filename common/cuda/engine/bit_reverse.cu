#include "cuda/engine/bit_reverse.hpp"

#include "cuda/error.hpp"

namespace cuzk::cuda {

namespace {

__global__ void bit_reverse_kernel(std::uint32_t* idx, std::size_t n, unsigned log_n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    idx[i] = log_n ? __brev(std::uint32_t(i)) >> (32 - log_n) : 0;
}

}  // namespace

void bit_reversed_indices(std::uint32_t* idx, std::size_t n, unsigned log_n, cudaStream_t s) {
  if (n == 0) return;
  const unsigned blocks = unsigned(std::min<std::size_t>((n + 255) / 256, 65535));
  bit_reverse_kernel<<<blocks, 256, 0, s>>>(idx, n, log_n);
  CUZK_CUDA_LAUNCHED();
}

}  // namespace cuzk::cuda
