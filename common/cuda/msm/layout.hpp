// How a device Pippenger of n scalars is cut up (window.cpp): the window, the
// shifted copies it reads, the windows sorted together (a group, whole virtual
// windows, its sort buffers near max_sort_bytes) and the level-0 segment; and
// the temporaries that takes, for the key's device-memory footprint.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuda/msm/msm.hpp"
#include "sizing/msm_memory.hpp"

namespace cuzk::cuda::msm {

/* keys and values, before and after the sort: 16 B per (scalar, window) */
inline constexpr std::size_t max_sort_bytes = std::size_t(2) << 30;

/* c, K (windows a virtual window), W, per_group, L0: sizing's, which the node planner computes too */
using layout = sizing::msm_layout;

/* Plain, or over the bases' copies where the cost model says that pays. */
layout choose_layout(std::size_t n, const shifts& sh, unsigned scalar_bits);

/* L0: longer segments leave fewer pieces, shorter ones more threads */
std::uint32_t first_chunk(std::size_t items);

/* the temporaries of one group (msm/workspace.hpp), xyzz_bytes a bucket */
std::size_t layout_bytes(std::size_t n, const layout& l, std::size_t xyzz_bytes);

}  // namespace cuzk::cuda::msm
