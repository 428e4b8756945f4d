#include "cuda/device.hpp"

#include <cuda_runtime_api.h>

#include "cuda/error.hpp"

namespace cuzk::cuda {

int device_count() noexcept {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();  // no driver / no device: not an error for whoever asks next
    return 0;
  }
  return n;
}

device_info info(int device) {
  cudaDeviceProp p{};
  CUZK_CUDA_OK(cudaGetDeviceProperties(&p, device));
  int current = 0;
  CUZK_CUDA_OK(cudaGetDevice(&current));
  CUZK_CUDA_OK(cudaSetDevice(device));
  std::size_t free = 0, total = 0;
  const cudaError_t e = cudaMemGetInfo(&free, &total);
  CUZK_CUDA_OK(cudaSetDevice(current));
  CUZK_CUDA_OK(e);
  return {device, p.name, p.multiProcessorCount, total, free, p.major, p.minor};
}

}  // namespace cuzk::cuda
