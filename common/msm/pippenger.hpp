// Pippenger's bucket method (Pippenger 1976; the formulation of Bernstein,
// Doumen, Lange, Oosterwijk 2012) for sum_i k_i P_i, k_i < r < 2^bits
// (bits = scalar_bits<C>: 255 on BLS12-381, 254 on BN254):
//   k_i = sum_w d_{i,w} 2^(wc)   signed digits, |d| <= 2^(c-1)  (booth.hpp)
//   S_w = sum_i d_{i,w} P_i = sum_{b=1}^{2^(c-1)} b B_{w,b},
//         B_{w,b} = sum_{d_{i,w} = +-b} +-P_i           (bucket_accumulator.hpp)
//   sum_b b B_{w,b} by running sums          (bucket_reduce{,_batched}.hpp)
//   result = sum_w 2^(wc) S_w = (...(S_{W-1} 2^c + S_{W-2}) 2^c ...) + S_0
// Parallel over W windows x C chunks of points (plan.hpp), one task each with
// its own buckets; the chunk sums of a window are added at the end.
// Templated over the group G (ec::g1_group<C>, ec::g2_group<C>).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "msm/booth.hpp"
#include "msm/bucket_accumulator.hpp"
#include "msm/bucket_reduce.hpp"
#include "msm/bucket_reduce_batched.hpp"
#include "msm/options.hpp"
#include "msm/plan.hpp"

namespace cuzk::msm {

/* sum_i scalars[i] P_{sel[i] - first} (P_i when sel is null), scalars below
   r (canonical). Bases at infinity contribute nothing. Runs in the caller's
   TBB arena. Base: ec::affine_point or ec::packed_affine (a key's bytes). */
template <class G, class Base>
ec::jacobian<G> pippenger(std::span<const Base> bases, const std::uint32_t* sel, std::uint32_t first,
                          std::span<const ec::scalar_limbs_t> scalars, const options& opt = {}, stats* st = nullptr) {
  using jac_t = ec::jacobian<G>;
  constexpr unsigned bits = scalar_bits<typename G::curve>;
  const std::size_t n = scalars.size();
  const unsigned threads = unsigned(tbb::this_task_arena::max_concurrency());
  const plan p = choose_plan(bits, n, threads, opt.window_bits, opt.batch_size);
  if (st) {
    st->window_bits = p.window_bits;
    st->windows = p.windows;
    st->chunks = p.chunks;
    st->batch_size = p.batch_size;
  }
  if (n == 0) return {};

  const unsigned c = p.window_bits, W = p.windows, C = p.chunks;
  const std::size_t half = std::size_t(1) << (c - 1);
  /* The top window may hold fewer than c bits of k < 2^bits: with
     t = bits - wc of them its digits are in [0, 2^t], so only 2^t buckets
     fill. Batches are kept to a quarter of those; below 8, mixed additions
     are cheaper. */
  auto batch_size = [&](unsigned w) -> std::size_t {
    const unsigned t = bits > w * c ? bits - w * c : 0;
    if (t >= c - 1) return p.batch_size;
    const std::size_t quarter = (std::size_t(1) << t) / 4;
    return quarter < 8 ? 0 : std::min(quarter, p.batch_size);
  };
  std::vector<jac_t> sums(std::size_t(W) * C);
  struct workspace {
    bucket_accumulator<G, Base> acc;
    batched_reducer<G> reducer;
  };
  tbb::enumerable_thread_specific<workspace> workspaces;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, sums.size(), 1), [&](const auto& r) {
    workspace& ws = workspaces.local();
    bucket_accumulator<G, Base>& acc = ws.acc;
    for (std::size_t t = r.begin(); t != r.end(); ++t) {
      const unsigned w = unsigned(t % W), chunk = unsigned(t / W);
      const std::size_t lo = n * chunk / C, hi = n * (chunk + 1) / C;
      acc.reset(half, batch_size(w));
      /* digits run `ahead` points in front, so that their buckets can be
         prefetched while the batch fills */
      constexpr std::size_t ahead = 16;
      std::int32_t digits[ahead];
      auto look_ahead = [&](std::size_t j) {
        const std::int32_t d = booth_digit(scalars[j], w, c);
        digits[j % ahead] = d;
        if (d != 0) acc.prefetch(std::uint32_t(d > 0 ? d - 1 : -d - 1));
      };
      for (std::size_t j = lo; j < std::min(hi, lo + ahead); ++j) look_ahead(j);
      for (std::size_t i = lo; i < hi; ++i) {
        const std::int32_t d = digits[i % ahead];
        if (i + ahead < hi) look_ahead(i + ahead);
        if (d == 0) continue;
        const auto& base = bases[sel ? sel[i] - first : i];
        if (ec::is_infinity(base)) continue;
        /* B_{|d|} += sign(d) P */
        acc.add(std::uint32_t(d > 0 ? d - 1 : -d - 1), base, d < 0);
      }
      acc.finish();
      /* mostly full buckets: batch-affine running sums; sparse ones: XYZZ
         running sums that skip the empty runs */
      std::size_t filled = 0;
      for (const auto& b : acc.buckets()) filled += !b.infinity;
      sums[t] =
          filled >= 64 && 2 * filled >= half ? ws.reducer.reduce(acc.buckets()) : reduce_buckets<G>(acc.buckets());
    }
  });

  if (st) {
    for (const auto& ws : workspaces) {
      st->batched_adds += ws.acc.counters().batched;
      st->batches += ws.acc.counters().batches;
      st->overflow_adds += ws.acc.counters().overflow;
    }
  }

  jac_t result;
  for (unsigned w = W; w-- > 0;) {
    for (unsigned i = 0; i < c && !result.is_identity(); ++i) result = result.dbl();         /* result *= 2^c */
    for (unsigned chunk = 0; chunk < C; ++chunk) result += sums[std::size_t(chunk) * W + w]; /* += S_w */
  }
  return result;
}

}  // namespace cuzk::msm
