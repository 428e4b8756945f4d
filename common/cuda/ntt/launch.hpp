// The kernels of the NTT passes (kernels.cuh, one translation unit per curve
// made from kernels.cu.in; bit_reverse.cu), launched from plain C++.
#pragma once

#include <cstddef>

#include <cuda_runtime_api.h>

#include "cuda/ntt/plan.hpp"

namespace cuzk::cuda::ntt::detail {

/* one pass over the Fr of curve C: blocks() blocks of threads() threads, shared_bytes() of shared memory */
template <class C>
void launch(const pass& ps, cudaStream_t s);
/* out[i] = f(i), i < count (the twiddle table from its two power tables) */
template <class C>
void launch_powers(void* out, std::size_t count, const factor_fn& f, cudaStream_t s);
/* d[i] <-> d[rev(i)] for 32-byte elements (either curve's Fr) */
void launch_bit_reverse(void* d, unsigned log_n, cudaStream_t s);

}  // namespace cuzk::cuda::ntt::detail
