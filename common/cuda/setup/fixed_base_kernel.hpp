// The launches behind cuda/setup/fixed_base_engine (kernels in
// fixed_base_kernel.cuh, one translation unit per curve made from
// fixed_base_kernel.cu.in), on raw device pointers in the device layout:
// scalars are Fr of curve C in Montgomery form (32 B, the CPU's bytes), points
// affine x, y in Montgomery form with (0, 0) for infinity (two field elements:
// 96 B in G1 and 192 B in G2 on BLS12-381, 64 B and 128 B on BN254).
#pragma once

#include <cstddef>

#include <cuda_runtime_api.h>

#include "ff/fp.hpp"
#include "ff/fp2.hpp"

namespace cuzk::cuda::setup {

constexpr std::size_t scalar_bytes = 32;
template <class C>
inline constexpr std::size_t g1_point_bytes = 2 * sizeof(ff::fp<C>);
template <class C>
inline constexpr std::size_t g2_point_bytes = 2 * sizeof(ff::fp2<C>);
/* table[w * table_entries + d - 1] = d 2^(8w) G, as groth16::fixed_base_table */
constexpr std::size_t table_windows = 32, table_entries = 255;

/* out_i = k_i G for i < n */
template <class C>
void launch_fixed_base_g1(const void* table, const void* k, void* out, std::size_t n, cudaStream_t s);
template <class C>
void launch_fixed_base_g2(const void* table, const void* k, void* out, std::size_t n, cudaStream_t s);

}  // namespace cuzk::cuda::setup
