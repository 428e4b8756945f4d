// What a caller may choose about an MSM, and what it can learn about one.
#pragma once

#include <cstddef>
#include <cstdint>

namespace cuzk::msm {

struct options {
  /* 0: run in the caller's TBB arena (all cores, or the arena the caller is
     in); T > 0: in a task_arena of T threads */
  int threads = 0;
  /* Pippenger window size c, 1 ... max_window_bits; 0: chosen from n and the
     thread count (plan.hpp) */
  unsigned window_bits = 0;
  /* additions per batch-affine batch; 0: chosen with the window size */
  std::size_t batch_size = 0;
  /* false: every scalar goes through Pippenger (no zero/one split) */
  bool split = true;
};

/* How the scalars were split (DESIGN.md §5): zeros skipped, ones summed by
   batch addition, the rest through Pippenger. */
struct split_counts {
  std::size_t zeros = 0, ones = 0, others = 0;
};

struct stats {
  split_counts split;
  unsigned window_bits = 0;  // c
  unsigned windows = 0;      // ceil((bits + 1) / c): ceil(256 / c) on BLS12-381, ceil(255 / c) on BN254
  unsigned chunks = 0;       // point chunks per window (tasks = windows x chunks)
  std::size_t batch_size = 0;
  std::uint64_t batched_adds = 0;   // bucket additions done in batch-affine form
  std::uint64_t batches = 0;        // inversions they took
  std::uint64_t overflow_adds = 0;  // mixed additions into XYZZ buckets (conflicts, the top window)
};

}  // namespace cuzk::msm
