// Random Fr values filled on the device for the CUDA benchmarks.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuda/error.hpp"
#include "cuda/memory.hpp"

namespace cuzk::bench {
namespace {  // each benchmark file its own kernel

/* splitmix64 of (seed, word index); the top word masked below r's top bit
   (2^62 on BLS12-381, 2^61 on BN254) keeps each value < r, so the raw words
   are a valid Montgomery form */
__global__ void fill_random(std::uint64_t* d, std::size_t words, std::uint64_t seed, std::uint64_t top_mask) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= words) return;
  std::uint64_t z = seed + (i + 1) * 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  if (i % 4 == 3) z &= top_mask;
  d[i] = z;
}

template <class F>
void randomize(cuda::device_buffer<F>& b, std::uint64_t seed, cudaStream_t s) {
  const std::size_t words = b.size() * 4;
  const std::uint64_t top_mask = (std::uint64_t(1) << (F::params::bits - 1 - 192)) - 1;
  fill_random<<<unsigned((words + 255) / 256), 256, 0, s>>>(reinterpret_cast<std::uint64_t*>(b.data()), words, seed,
                                                            top_mask);
  CUZK_CUDA_LAUNCHED();
}

}  // namespace
}  // namespace cuzk::bench
