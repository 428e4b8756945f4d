// The field-independent steps of the device Pippenger (assign.cu): bucket
// assignment with CUB and the chunk plans of the accumulation levels
// (buckets.cuh describes both).
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

#include "cuda/msm/msm.hpp"
#include "cuda/msm/workspace.hpp"

namespace cuzk::cuda::msm {

/* Windows w0 .. w0 + wn - 1 of s with c-bit signed digits, the bases in K
   shifted copies of `stride` points (K = 1: plain; plan.cuh's booth_keys):
   afterwards vals[1] holds the (base, sign) values sorted by bucket, counts[b]
   and offsets[b] the size and start of dense bucket b = v (2^(c-1) + 1) + |d|
   of virtual window v (nb + 1 entries, counts[nb] = 0). */
void assign_buckets(workspace& ws, const scalars& s, unsigned c, unsigned w0, unsigned wn, unsigned K,
                    std::uint32_t stride, cudaStream_t st);

/* What assign_buckets and the level plans of wn windows of n scalars need, allocated now. */
void reserve_assign(workspace& ws, std::size_t n, unsigned c, unsigned wn, unsigned K, cudaStream_t st);

/* Level 0 (segments of L entries): chunks[0][b] = the pieces bucket b leaves (the
   segments it meets, or 0 if one), first[0] their exclusive scan. */
void plan_first_level(workspace& ws, std::uint32_t nb, std::uint32_t h1, std::uint32_t L, cudaStream_t st);

/* Level k > 0 from level k - 1 (ping-pong index prev): buckets left with more
   than one piece get ceil(pieces / L) chunks, into chunks/first[1 - prev], and
   their pieces' counts and offsets into level_counts/level_offsets. */
void plan_next_level(workspace& ws, unsigned prev, std::uint32_t nb, std::uint32_t L, cudaStream_t st);

}  // namespace cuzk::cuda::msm
