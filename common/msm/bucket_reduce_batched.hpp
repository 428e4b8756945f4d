// Bucket reduction in batch-affine form, for windows whose buckets are
// mostly full. Running sums are a sequential chain, so the buckets are cut
// into S segments of L and the S chains run side by side, each step one
// batch of S affine additions sharing an inversion (Montgomery's trick):
// about 2 x 6.5 multiplications per bucket instead of the 24 of XYZZ.
// For segment s, buckets lo = sL ... hi - 1 (bucket i has weight i + 1):
//   R_s = sum_{i in s} B_i,   T_s = sum_{i in s} (i - lo + 1) B_i   (running sums)
//   sum_i (i + 1) B_i = sum_s T_s + sum_s sL R_s = sum_s T_s + L sum_s s R_s,
// and sum_s s R_s is a running sum again, over S terms (XYZZ).
#pragma once

#include <algorithm>
#include <cstddef>
#include <span>
#include <vector>

#include "ec/batch_affine.hpp"
#include "msm/lane_batch.hpp"
#include "msm/xyzz.hpp"

namespace cuzk::msm {

template <class Curve>
class batched_reducer {
 public:
  using field_t = typename Curve::field_t;
  using affine_t = ec::affine_point<field_t>;

  /* sum_i (i + 1) B_i */
  ec::jacobian<Curve> reduce(std::span<const affine_t> buckets) {
    const std::size_t m = buckets.size();
    const std::size_t S = std::clamp<std::size_t>(m / 16, 1, max_segments), L = (m + S - 1) / S;
    R_.assign(S, affine_t{});
    T_.assign(S, affine_t{});
    add_.resize(S);
    den_.resize(S);
    prefix_.resize(S);
    for (std::size_t j = L; j-- > 0;) {
      for (std::size_t s = 0; s < S; ++s) add_[s] = s * L + j < m ? buckets[s * L + j] : affine_t{};
      batch_add(R_, add_); /* R_s += B_{sL + j} */
      batch_add(T_, R_);   /* T_s += R_s */
    }
    xyzz<Curve> running, weighted, t_sum;
    for (std::size_t s = S; s-- > 1;) {
      running += R_[s];    /* running = R_{S-1} + ... + R_s */
      weighted += running; /* sum_s s R_s, as sum over s of those running sums */
    }
    for (std::size_t s = 0; s < S; ++s) t_sum += T_[s];
    if (!weighted.is_identity()) t_sum += times(weighted, L); /* + L sum_s s R_s */
    return t_sum.to_jacobian();
  }

 private:
  static constexpr std::size_t max_segments = 128;

  /* acc_s += add_s for all s: eight at a time where the CPU has IFMA (lane_batch.hpp), else with one inversion
     (the cases without a slope, an infinity or P + (-P), have denominator 0 and are skipped by the trick) */
  void batch_add(std::vector<affine_t>& acc, const std::vector<affine_t>& add) {
    if (lane_add_affine<field_t>(lanes_, chords_, acc, add)) return;
    field_t prod = field_t::one();
    for (std::size_t s = 0; s < acc.size(); ++s) {
      den_[s] = ec::affine_add_denominator(acc[s], add[s]);
      prefix_[s] = prod; /* d_0 ... d_{s-1} */
      if (!den_[s].is_zero()) prod *= den_[s];
    }
    field_t inv = prod.inverse();
    for (std::size_t s = acc.size(); s-- > 0;) {
      field_t d_inv;
      if (!den_[s].is_zero()) {
        d_inv = inv * prefix_[s]; /* 1 / d_s */
        inv *= den_[s];
      }
      acc[s] = ec::affine_add_with_inverse(acc[s], add[s], d_inv);
    }
  }

  std::vector<affine_t> R_, T_, add_;
  std::vector<field_t> den_, prefix_;
  lane_batch<field_t> lanes_;
  std::vector<std::uint32_t> chords_;
};

}  // namespace cuzk::msm
