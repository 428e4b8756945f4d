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
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "ff/ifma_fp2.hpp"

namespace cuzk::msm {

template <class F>
class lane_batch {
 public:
  using mem_t = typename ff::ifma::lane_type<F>::mem;

  void start(std::size_t k) {
    k_ = k;
    const std::size_t groups = (k + 7) / 8;
    if (x1_.size() < groups) {
      x1_.resize(groups);
      y1_.resize(groups);
      x2_.resize(groups);
      y2_.resize(groups);
      pre_.resize(groups);
    }
    for (std::size_t j = k; j < 8 * groups; ++j) set(j, F{}, F{}, F::one(), F{});
  }
  void set(std::size_t j, const F& x1, const F& y1, const F& x2, const F& y2) {
    const unsigned lane = unsigned(j % 8);
    const std::size_t g = j / 8;
    x1_[g].set(lane, x1);
    y1_[g].set(lane, y1);
    x2_[g].set(lane, x2);
    y2_[g].set(lane, y2);
  }
  /* the sums, in x3(j), y3(j) */
  void run() {
#if CUZK_FF_IFMA
    run_lanes();
#endif
  }
  F x3(std::size_t j) const { return x1_[j / 8].get(unsigned(j % 8)); }
  F y3(std::size_t j) const { return y1_[j / 8].get(unsigned(j % 8)); }

 private:
#if CUZK_FF_IFMA
  /* inv_i = 1 / acc_i for the eight lanes: one inversion, 21 multiplications */
  static void invert_lanes(mem_t& m) {
    std::array<F, 8> v, pre;
    F acc = F::one();
    for (unsigned i = 0; i < 8; ++i) {
      v[i] = m.get(i);
      pre[i] = acc;
      acc *= v[i];
    }
    F inv = acc.inverse();
    for (unsigned i = 8; i-- > 0;) {
      m.set(i, inv * pre[i]);
      inv *= v[i];
    }
  }

  CUZK_IFMA_TARGET __attribute__((noinline)) void run_lanes() {
    using ff::ifma::add, ff::ifma::sub, ff::ifma::mul, ff::ifma::sqr, ff::ifma::load, ff::ifma::store;
    const std::size_t groups = (k_ + 7) / 8;
    mem_t m;
    for (unsigned i = 0; i < 8; ++i) m.set(i, F::one());
    auto acc = load(m);
    for (std::size_t g = 0; g < groups; ++g) {
      store(pre_[g], acc);
      acc = mul(acc, sub(load(x2_[g]), load(x1_[g])));
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
      store(x1_[g], x3);
      store(y1_[g], sub(mul(lambda, sub(x1, x3)), y1));
    }
  }
#endif

  std::size_t k_ = 0;
  std::vector<mem_t> x1_, y1_, x2_, y2_, pre_;
};

}  // namespace cuzk::msm
