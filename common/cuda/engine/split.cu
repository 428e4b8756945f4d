#include "cuda/engine/split.hpp"

#include <cub/device/device_select.cuh>

#include "cuda/error.hpp"
#include "cuda/ff/fr.cuh"
#include "curves/dispatch.hpp"

namespace cuzk::cuda {

namespace {

/* flags[i] = 1 for a one (R mod r in Montgomery form), flags[n + i] = 1 for any other nonzero value */
template <class F>
__global__ void classify(const F* z, std::size_t n, std::uint8_t* flags, std::uint32_t* iota,
                         ec::scalar_limbs_t* canonical) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    const F v = z[i];
    const bool one = v.is_one(), other = !one && !v.is_zero();
    flags[i] = one;
    flags[n + i] = other;
    iota[i] = std::uint32_t(i);
    if (other) v.to_canonical(reinterpret_cast<std::uint32_t*>(&canonical[i]));
  }
}

template <class T>
void grow(device_buffer<T>& b, std::size_t n, const char* what) {
  if (b.size() < n) {
    b = device_buffer<T>();
    b = device_buffer<T>(n, what);
  }
}

}  // namespace

template <class C>
device_splitter::result device_splitter::split(const ff::fr<C>* z, std::size_t n, cudaStream_t s) {
  if (n >= 0xffffffffu) throw std::length_error("split: at most 2^32 - 1 scalars");
  const std::size_t m = std::max<std::size_t>(n, 1);
  grow(flags_, 2 * m, "the witness split's flags");
  grow(iota_, m, "the witness split's indices");
  grow(ones_, m, "indices of the scalars equal to one");
  grow(others_, m, "indices of the other scalars");
  grow(canonical_, m, "the witness in canonical form");
  grow(k_, m, "the other scalars");
  grow(counts_, 2, "the split's counts");
  const unsigned blocks = unsigned(std::min<std::size_t>((m + 255) / 256, 65535));
  classify<<<blocks, 256, 0, s>>>(reinterpret_cast<const fr<C>*>(z), n, flags_.data(), iota_.data(), canonical_.data());
  CUZK_CUDA_LAUNCHED();
  std::size_t bytes = 0, need = 0;
  CUZK_CUDA_OK(
      cub::DeviceSelect::Flagged(nullptr, need, iota_.data(), flags_.data(), ones_.data(), counts_.data(), int(n), s));
  CUZK_CUDA_OK(cub::DeviceSelect::Flagged(nullptr, bytes, canonical_.data(), flags_.data(), k_.data(), counts_.data(),
                                          int(n), s));
  grow(temp_, std::max(need, bytes) + 1, "the split's scratch");
  bytes = temp_.size();
  CUZK_CUDA_OK(cub::DeviceSelect::Flagged(temp_.data(), bytes, iota_.data(), flags_.data(), ones_.data(),
                                          counts_.data(), int(n), s));
  bytes = temp_.size();
  CUZK_CUDA_OK(cub::DeviceSelect::Flagged(temp_.data(), bytes, iota_.data(), flags_.data() + n, others_.data(),
                                          counts_.data() + 1, int(n), s));
  bytes = temp_.size();
  CUZK_CUDA_OK(cub::DeviceSelect::Flagged(temp_.data(), bytes, canonical_.data(), flags_.data() + n, k_.data(),
                                          counts_.data() + 1, int(n), s));
  std::uint32_t counts[2];
  CUZK_CUDA_OK(cudaMemcpyAsync(counts, counts_.data(), sizeof counts, cudaMemcpyDeviceToHost, s));
  CUZK_CUDA_OK(cudaStreamSynchronize(s));
  return {ones_.data(), counts[0], others_.data(), k_.data(), counts[1]};
}

#define CUZK_INSTANTIATE(C) \
  template device_splitter::result device_splitter::split<C>(const ff::fr<C>*, std::size_t, cudaStream_t);
CUZK_CURVES(CUZK_INSTANTIATE)
#undef CUZK_INSTANTIATE

}  // namespace cuzk::cuda
