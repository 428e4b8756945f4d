#include "msm/plan.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include "ff/ifma.hpp"
#include "msm/booth.hpp"

namespace cuzk::msm {

namespace {
/* Costs in units of one batch-affine bucket addition (6 field
   multiplications, 8 additions, its share of the batch's inversion: about
   8 multiplications' time), measured on x86-64, G1 and G2 alike: */
constexpr double reduce_dense = 1.8;      // per bucket: two batch-affine additions (bucket_reduce_batched)
constexpr double reduce_sparse = 4.0;     // per non-empty bucket: XYZZ madd + add, 10 + 14 multiplications
constexpr double scan_per_bucket = 0.02;  // clearing and scanning an empty bucket
constexpr double per_task = 40;           // workspace setup, the last small batches
constexpr double inversion = 4;           // one batch's inversion (safegcd, ~30 multiplications)

constexpr double jacobian_add = 2.5;  // combining chunk and window sums
constexpr double doubling = 1.1;

/* Additions per batch: half the buckets (the queue absorbs the conflicts
   that brings), at most 256, which makes the inversion's share small; at
   most 1024 where the additions run in IFMA lanes (lane_batch.hpp): they are
   cheaper, and each lane's share of a batch is an eighth (measured, BLS12-381
   2^16, one thread: G1 177 → 146 ms, G2 507 → 428 ms from 256 to 1024; 2048
   no better). */
std::size_t default_batch(unsigned c) {
  return std::clamp<std::size_t>((std::size_t(1) << (c - 1)) / 2, 16, ff::ifma::active ? 1024 : 256);
}
}  // namespace

double plan_cost(unsigned scalar_bits, std::size_t n, unsigned threads, unsigned c, unsigned chunks) {
  threads = std::max(1u, threads);
  const unsigned windows = window_count(c, scalar_bits);
  const double points = double(n) / chunks;
  double work = 0, full_task = 0;
  unsigned full_windows = 0;
  for (unsigned w = 0; w < windows; ++w) {
    /* window w holds t = min(c, bits - wc) bits of k < 2^bits: 2^(t-1)
       buckets for a full window, 2^t for the top one (its digits are 0 ... 2^t) */
    const int t = std::min(int(c), std::max(0, int(scalar_bits) - int(w * c)));
    const double buckets = t == int(c) ? std::ldexp(1.0, t - 1) : std::ldexp(1.0, t);
    const double adds = points * (1.0 - 1.0 / (2 * buckets + 1));      /* digit 0 w.p. about 1/(2m + 1) */
    const double filled = buckets * (1.0 - std::exp(-adds / buckets)); /* expected non-empty buckets */
    const double reduce = filled >= buckets / 2 ? reduce_dense : reduce_sparse;
    const double task =
        adds * (1 + inversion / double(default_batch(c))) + filled * reduce + buckets * scan_per_bucket + per_task;
    work += task * chunks;
    if (t == int(c)) {
      full_task = task;
      ++full_windows;
    }
  }
  /* tasks are indivisible: the full windows' tasks take ceil(tasks / threads) rounds */
  const double rounds = std::ceil(double(full_windows) * chunks / threads);
  const double tasks = double(windows) * chunks;
  return std::max(work / threads, rounds * full_task) + tasks * jacobian_add + double(windows * c) * doubling;
}

plan choose_plan(unsigned scalar_bits, std::size_t n, unsigned threads, unsigned window_bits, std::size_t batch_size) {
  threads = std::max(1u, threads);
  plan best{1, window_count(1, scalar_bits), 1, 0};
  double best_cost = -1;
  /* c <= 16 unless asked: beyond, the buckets (2^15 x 104 bytes in G1) spill
     from L2 and the model's costs no longer hold */
  /* and c <= bit_width(n) + 1: with fewer points than buckets the model
     underprices scanning and clearing them (measured, one thread, G1: 8
     points took 2.1 ms at c = 3 and 4.1 ms at the c = 10 it would pick) */
  const unsigned c_cap = std::clamp(unsigned(std::bit_width(n)) + 1, 3u, 16u);
  const unsigned c_lo = window_bits ? window_bits : 1, c_hi = window_bits ? window_bits : c_cap;
  const unsigned max_chunks = unsigned(std::clamp<std::size_t>(n, 1, 8 * std::size_t(threads)));
  for (unsigned c = c_lo; c <= c_hi; ++c) {
    for (unsigned chunks = 1; chunks <= max_chunks; ++chunks) {
      const double cost = plan_cost(scalar_bits, n, threads, c, chunks);
      if (best_cost < 0 || cost < best_cost) {
        best_cost = cost;
        best = {c, window_count(c, scalar_bits), chunks, 0};
      }
    }
  }
  best.batch_size = batch_size ? batch_size : default_batch(best.window_bits);
  return best;
}

}  // namespace cuzk::msm
