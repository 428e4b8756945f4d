#include "msm/plan.hpp"

#include <algorithm>
#include <cmath>

#include "msm/booth.hpp"

namespace cuzk::msm {

namespace {
/* Costs in units of one batch-affine bucket addition (about 6.5 field
   multiplications with its share of the batch's inversion), measured on
   x86-64 for G1 and G2 alike: */
constexpr double reduce_per_bucket = 3.7;  // XYZZ madd + add, 10 + 14 multiplications
constexpr double scan_per_bucket = 0.02;   // clearing and scanning an empty bucket
constexpr double per_task = 40;            // workspace setup, the last small batches
constexpr double jacobian_add = 2.5;       // combining chunk and window sums
constexpr double doubling = 1.1;
}  // namespace

double plan_cost(std::size_t n, unsigned threads, unsigned c, unsigned chunks) {
  const double half = double(std::size_t(1) << (c - 1));
  const unsigned windows = window_count(c);
  const double points = double(n) / chunks;
  const double adds = points * (1.0 - std::ldexp(1.0, -int(c)));   /* digit 0 w.p. about 2^-c */
  const double filled = half * (1.0 - std::exp(-adds / half));     /* expected non-empty buckets */
  const double task = adds + filled * reduce_per_bucket + half * scan_per_bucket + per_task;
  const double tasks = double(windows) * chunks;
  const double rounds = std::ceil(tasks / std::max(1u, threads));
  return rounds * task + tasks * jacobian_add + double(windows * c) * doubling;
}

plan choose_plan(std::size_t n, unsigned threads, unsigned window_bits, std::size_t batch_size) {
  threads = std::max(1u, threads);
  plan best{1, window_count(1), 1, 0};
  double best_cost = -1;
  const unsigned c_lo = window_bits ? window_bits : 1, c_hi = window_bits ? window_bits : max_window_bits;
  const unsigned max_chunks = unsigned(std::clamp<std::size_t>(n, 1, 8 * std::size_t(threads)));
  for (unsigned c = c_lo; c <= c_hi; ++c) {
    for (unsigned chunks = 1; chunks <= max_chunks; ++chunks) {
      const double cost = plan_cost(n, threads, c, chunks);
      if (best_cost < 0 || cost < best_cost) {
        best_cost = cost;
        best = {c, window_count(c), chunks, 0};
      }
    }
  }
  /* An inversion (safegcd) costs about 25-40 multiplications, so 256
     additions per batch make it a small share; a quarter of the buckets at
     most, so that few points find their bucket already in the batch. */
  const std::size_t half = std::size_t(1) << (best.window_bits - 1);
  best.batch_size = batch_size ? batch_size : std::clamp<std::size_t>(half / 4, 16, 256);
  return best;
}

}  // namespace cuzk::msm
