// Pippenger's window size on the device: the c minimising
//   W(c) (n + 3 2^(c-1) + 2^12),   W(c) = ceil((bits + 1) / c) (msm::window_count),
// point additions into buckets, the bucket reduction (two XYZZ additions a
// bucket, about three mixed ones) and a fixed cost per window (its sort and
// launches), for c up to 20 (the buckets of 2^24 points in 13 windows).
#include <cstddef>

#include "cuda/msm/msm.hpp"
#include "msm/booth.hpp"

namespace cuzk::cuda::msm {

unsigned window_bits(std::size_t n, unsigned scalar_bits) {
  unsigned best = 2;
  double best_cost = 0;
  for (unsigned c = 2; c <= 20; ++c) {
    const double cost = double(::cuzk::msm::window_count(c, scalar_bits)) *
                        (double(n) + 3.0 * double(std::size_t(1) << (c - 1)) + 4096.0);
    if (c == 2 || cost < best_cost) best = c, best_cost = cost;
  }
  return best;
}

}  // namespace cuzk::cuda::msm
