#include "gpu_test.hpp"

#include <cuda_runtime_api.h>

namespace cuzk::test {

void sync_device() { CUZK_CUDA_OK(cudaDeviceSynchronize()); }

}  // namespace cuzk::test
