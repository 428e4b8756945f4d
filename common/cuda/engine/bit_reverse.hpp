// idx[i] = rev_k(i): the base index of scalar i when the scalars come out of
// a transform in bit-reversed order, so the MSM reads them where they are.
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

namespace cuzk::cuda {

void bit_reversed_indices(std::uint32_t* idx, std::size_t n, unsigned log_n, cudaStream_t s);

}  // namespace cuzk::cuda
