// The launches behind cuda/setup/fixed_base_engine (kernels in
// fixed_base_kernel.cu), on raw device pointers in the device layout:
// scalars are Fr in Montgomery form (32 B, the CPU's bytes), points affine
// x, y in Montgomery form with (0, 0) for infinity (96 B in G1, 192 B in G2).
#pragma once

#include <cstddef>

#include <cuda_runtime_api.h>

namespace cuzk::cuda::setup {

constexpr std::size_t scalar_bytes = 32, g1_point_bytes = 96, g2_point_bytes = 192;
/* table[w * table_entries + d - 1] = d 2^(8w) G, as groth16::fixed_base_table */
constexpr std::size_t table_windows = 32, table_entries = 255;

/* out_i = k_i G for i < n */
void launch_fixed_base_g1(const void* table, const void* k, void* out, std::size_t n, cudaStream_t s);
void launch_fixed_base_g2(const void* table, const void* k, void* out, std::size_t n, cudaStream_t s);

}  // namespace cuzk::cuda::setup
