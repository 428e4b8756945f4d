// Batch-affine additions eight at a time (ff/ifma.hpp's lanes): k additions
// (x1, y1) + (x2, y2), x1 != x2, share one inversion as in
// bucket_accumulator.hpp, with addition j in lane j mod 8 of group j / 8.
// Each lane runs Montgomery's trick down its own groups:
//   pre_g = d_0 ... d_{g-1},  d_g = x2 − x1   (all lanes at once)
// then the eight lane products are inverted together (one field inversion
// and 21 multiplications), and walking back
//   1/d_g = inv·pre_g,  inv ← inv·d_g,
//   λ = (y2 − y1)/d_g,  x3 = λ^2 − x1 − x2,  y3 = λ(x1 − x3) − y1.
// Lanes past k are padded with (0, 0) + (1, 0), whose denominator is 1.
// The points are gathered from where they lie, and the sums scattered back,
// eight lanes a load or store of each word.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstring>
#include <cstdint>
#include <span>
#include <vector>

#include "ec/batch_affine.hpp"
#include "ff/ifma_fp2.hpp"

namespace cuzk::msm {

/* batches from this many additions go to the lanes: smaller ones would be mostly padding */
inline constexpr std::size_t min_lane_batch = 32;

template <class F>
class lane_batch {
 public:
  using mem_t = typename ff::ifma::lane_type<F>::mem;

  /* k additions to come, set(0 ... k - 1) */
  void start(std::size_t k) {
    k_ = k;
    const std::size_t groups = (k + 7) / 8;
    if (pre_.size() < groups) {
      for (auto* v : {&x1_, &y1_, &x2_, &y2_, &pre_}) v->resize(groups);
      sum_at_.resize(8 * groups);
      point_at_.resize(8 * groups);
      negate_.resize(groups);
    }
    std::fill_n(negate_.begin(), groups, 0);
    if (k % 8) { /* (0, 0) + (1, 0): the denominator 1 */
      const F one = F::one();
      std::memcpy(pad_point_, &one, sizeof(F));
      for (std::size_t j = k; j < 8 * groups; ++j) {
        pad_sum_[j % 8][0] = pad_sum_[j % 8][1] = F{};  // the last run left its sum there
        set(j, pad_sum_[j % 8], pad_point_, false);
      }
    }
  }
  /* addition j: the affine point (x, y) at sum (two F, x then y) += the one at point (the same, any alignment),
     negated when negate; the sum replaces the point at sum */
  void set(std::size_t j, F* sum, const void* point, bool negate) {
    sum_at_[j] = reinterpret_cast<std::uintptr_t>(sum);
    point_at_[j] = reinterpret_cast<std::uintptr_t>(point);
    if (negate) negate_[j / 8] |= std::uint8_t(1u << (j % 8));
  }
  void run() {
#if CUZK_FF_IFMA
    run_lanes();
#endif
  }

 private:
#if CUZK_FF_IFMA
  /* inv_i = 1 / acc_i for the eight lanes: one inversion, 21 multiplications (ec::batch_inverse) */
  static void invert_lanes(mem_t& m) {
    std::array<F, 8> v;
    for (unsigned i = 0; i < 8; ++i) v[i] = m.get(i);
    ec::batch_inverse<F>(v);
    for (unsigned i = 0; i < 8; ++i) m.set(i, v[i]);
  }

  CUZK_IFMA_INLINE static auto gather(__m512i at, std::size_t offset) {
    if constexpr (requires { typename F::base_t; })
      return ff::ifma::gather2<typename F::curve>(at, offset);
    else
      return ff::ifma::gather<typename F::params>(at, offset);
  }

  CUZK_IFMA_TARGET __attribute__((noinline)) void run_lanes() {
    using ff::ifma::add, ff::ifma::sub, ff::ifma::mul, ff::ifma::sqr, ff::ifma::load, ff::ifma::store;
    const std::size_t groups = (k_ + 7) / 8;
    mem_t m;
    for (unsigned i = 0; i < 8; ++i) m.set(i, F::one());
    auto acc = load(m);
    for (std::size_t g = 0; g < groups; ++g) {
      const __m512i sum = _mm512_loadu_si512(&sum_at_[8 * g]), point = _mm512_loadu_si512(&point_at_[8 * g]);
      const auto x1 = gather(sum, 0), x2 = gather(point, 0);
      store(x1_[g], x1);
      store(y1_[g], gather(sum, sizeof(F)));
      store(x2_[g], x2);
      store(y2_[g], ff::ifma::negate_where(__mmask8(negate_[g]), gather(point, sizeof(F))));
      store(pre_[g], acc);
      acc = mul(acc, sub(x2, x1));
    }
    store(m, acc);
    invert_lanes(m);
    auto inv = load(m);
    for (std::size_t g = groups; g-- > 0;) {
      const auto x1 = load(x1_[g]), y1 = load(y1_[g]), x2 = load(x2_[g]);
      const auto d = sub(x2, x1);
      const auto dinv = mul(inv, load(pre_[g])); /* 1 / d_g */
      inv = mul(inv, d);                         /* 1 / (d_0 ... d_{g-1}) */
      const auto lambda = mul(sub(load(y2_[g]), y1), dinv);
      const auto x3 = sub(sub(sqr(lambda), x1), x2);
      const __m512i sum = _mm512_loadu_si512(&sum_at_[8 * g]);
      ff::ifma::scatter(sum, 0, x3);
      ff::ifma::scatter(sum, sizeof(F), sub(mul(lambda, sub(x1, x3)), y1));
    }
  }
#endif

  std::size_t k_ = 0;
  std::vector<mem_t> x1_, y1_, x2_, y2_, pre_;
  std::vector<std::uintptr_t> sum_at_, point_at_;
  std::vector<std::uint8_t> negate_;
  F pad_sum_[8][2]{};  // written to by the padding lanes
  alignas(8) unsigned char pad_point_[2 * sizeof(F)]{};
};

/* acc[i] += add[i] for every i, as ec::batch_add_affine, where the lanes run (ifma::active; false, nothing done,
   elsewhere): the sums that need a chord (both points finite, x1 != x2) in lanes, the rest (an infinity, P + P,
   P + (-P)) one by one. */
template <class F>
bool lane_add_affine(lane_batch<F>& lanes, std::vector<std::uint32_t>& chords, std::span<ec::affine_point<F>> acc,
                     std::span<const ec::affine_point<F>> add) {
  if constexpr (ff::ifma::lane_type<F>::exists) {
    if (ff::ifma::active && acc.size() >= min_lane_batch) {
      chords.clear();
      for (std::size_t i = 0; i < acc.size(); ++i) {
        if (add[i].infinity) continue;
        if (acc[i].infinity) {
          acc[i] = add[i];
        } else if (acc[i].x == add[i].x) { /* 2P, or O: one inversion each, as rare as equal x are */
          const F d = ec::affine_add_denominator(acc[i], add[i]);
          acc[i] = ec::affine_add_with_inverse(acc[i], add[i], d.inverse());
        } else {
          chords.push_back(std::uint32_t(i));
        }
      }
      lanes.start(chords.size());
      for (std::size_t j = 0; j < chords.size(); ++j) lanes.set(j, &acc[chords[j]].x, &add[chords[j]].x, false);
      lanes.run();
      return true;
    }
  }
  return false;
}

}  // namespace cuzk::msm
