// How a device Pippenger of n scalars is cut up, and the device memory that
// takes, as plain arithmetic (no CUDA): the window, the shifted copies of the
// bases it may read, the windows sorted together and the temporaries. The
// CUDA MSM (cuda/msm/window.cpp) and the node planner (cuzk plan) both call
// these, so the planner's figures are the device's.
#pragma once

#include <cstddef>
#include <cstdint>

namespace cuzk::sizing {

/* Precomputed shifted copies of a query's bases (cuda/msm/msm.hpp: shifts):
   copy k of base P is 2^(kc) P, k = 0 .. copies. copies = 0: plain. */
struct msm_shifts {
  unsigned copies = 0;
  unsigned c = 0;
  friend bool operator==(const msm_shifts&, const msm_shifts&) = default;
};

/* How one Pippenger is cut up (cuda/msm/layout.hpp: layout). */
struct msm_layout {
  unsigned c = 0;          // window bits
  unsigned K = 1;          // windows a virtual window (copies + 1; 1: plain)
  unsigned W = 0;          // windows
  unsigned per_group = 0;  // windows sorted together, a multiple of K (or W)
  std::uint32_t L0 = 0;    // level 0's segment
};

/* the largest window the device uses for shifted copies */
inline constexpr unsigned msm_max_shifted_window = 22;
/* the bases and their copies, all of them: (copies + 1) n below this (31-bit point indices) */
inline constexpr std::size_t msm_max_shifted_points = std::size_t(1) << 31;
/* keys and values of one group's sort, before and after: 16 B per (scalar, window) */
inline constexpr std::size_t msm_max_sort_bytes = std::size_t(2) << 30;

/* The plain window for n scalars below 2^scalar_bits. */
unsigned msm_window_bits(std::size_t n, unsigned scalar_bits = 255);
/* The cost model, in point additions (msm_memory.cpp). */
double msm_plain_cost(std::size_t n, unsigned c, unsigned scalar_bits);
double msm_shifted_cost(std::size_t n, const msm_shifts& sh, unsigned scalar_bits);
/* The window for shifted copies of n bases, at most max_copies of them. */
msm_shifts msm_plan_shifts(std::size_t n, unsigned max_copies, unsigned scalar_bits = 255);
/* Plain, or over the bases' copies where the cost model says that pays. */
msm_layout msm_choose_layout(std::size_t n, const msm_shifts& sh, unsigned scalar_bits);
std::uint32_t msm_first_chunk(std::size_t items);
/* the temporaries of one group, xyzz_bytes a bucket */
std::size_t msm_layout_bytes(std::size_t n, const msm_layout& l, std::size_t xyzz_bytes);
/* Device bytes of Pippenger's temporaries for n scalars, plain or over shifted copies. */
std::size_t msm_workspace_bytes(std::size_t n, const msm_shifts& sh, std::size_t xyzz_bytes,
                                unsigned scalar_bits = 255);

}  // namespace cuzk::sizing
