// How Pippenger splits an MSM of n points: window size c and point chunks.
// The work is W = ceil((bits + 1) / c) windows (bits: the scalars' length,
// booth.hpp) times C chunks of n / C points, one
// task each: bucket accumulation (about one batch-affine addition per point)
// and bucket reduction (two XYZZ additions per non-empty bucket). The plan
// minimises a cost model of that work spread over the threads.
#pragma once

#include <cstddef>

namespace cuzk::msm {

struct plan {
  unsigned window_bits;    // c
  unsigned windows;        // W
  unsigned chunks;         // C
  std::size_t batch_size;  // additions per batch-affine batch
};

/* The plan for n scalars below 2^scalar_bits (msm::scalar_bits<C>) on
   `threads` threads; window_bits and batch_size, when nonzero, are taken as
   given. */
plan choose_plan(unsigned scalar_bits, std::size_t n, unsigned threads, unsigned window_bits = 0,
                 std::size_t batch_size = 0);

/* The modelled time of one plan, in units of one batch-affine addition. */
double plan_cost(unsigned scalar_bits, std::size_t n, unsigned threads, unsigned c, unsigned chunks);

}  // namespace cuzk::msm
