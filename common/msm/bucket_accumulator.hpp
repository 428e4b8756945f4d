// Bucket accumulation with batch-affine additions: the buckets stay affine,
// and B_b += P is postponed until a batch of such additions, to pairwise
// distinct buckets, is collected; then all slope denominators share one field
// inversion (Montgomery's trick), and each addition costs about 6
// multiplications instead of the 11 of a mixed Jacobian addition.
// Batch-affine MSM buckets: as in gnark-crypto's msm and the ZPrize 2022
// entries (Aztec's "Montgomery's trick" buckets, yrrid's and MatterLabs'
// submissions).
//
// Conflicts: a point for a bucket already in the batch waits in a queue and
// is retried after the batch is applied. When the queue is full (scalars so
// skewed that the batch cannot fill with distinct buckets) the point goes to
// a side bucket in XYZZ coordinates by a mixed addition instead: correct for
// any input, never one inversion per point. finish() folds the side buckets
// back in, so the result is affine buckets only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "ec/batch_affine.hpp"
#include "msm/lane_batch.hpp"
#include "msm/xyzz.hpp"

namespace cuzk::msm {

struct accumulator_counters {
  std::uint64_t batched = 0;   // additions done in batch-affine form
  std::uint64_t batches = 0;   // inversions spent on them
  std::uint64_t overflow = 0;  // mixed additions into the XYZZ side buckets
};

/* Base: the points added, ec::affine_point or ec::packed_affine (never the point at infinity) */
template <class Curve, class Base = ec::affine_point<typename Curve::field_t>>
class bucket_accumulator {
 public:
  using field_t = typename Curve::field_t;
  using affine_t = ec::affine_point<field_t>;

  /* n_buckets empty buckets, batches of at most batch_cap additions;
     batch_cap = 0: every addition straight into the side buckets (for a
     window with so few buckets that batches could not fill) */
  void reset(std::size_t n_buckets, std::size_t batch_cap) {
    buckets_.assign(n_buckets, affine_t{});
    if (stamp_.size() != n_buckets || epoch_ > 0xfffffff0u) {
      stamp_.assign(n_buckets, 0);
      epoch_ = 1;
    }
    for (std::uint32_t b : touched_) {
      side_[b] = {};
      in_side_[b] = 0;
    }
    touched_.clear();
    if (side_.size() != n_buckets) {
      side_.assign(n_buckets, xyzz<Curve>{});
      in_side_.assign(n_buckets, 0);
    }
    direct_ = batch_cap == 0;
    cap_ = direct_ ? 1 : batch_cap;
    batch_.clear();
    queue_.clear();
    den_.resize(cap_);
    prefix_.resize(cap_);
  }

  /* B_bucket += P, or += -P when negate; P not the point at infinity */
  void add(std::uint32_t bucket, const Base& p, bool negate) {
    if (direct_) return side_add({&p, bucket, negate, false});
    place({&p, bucket, negate, false});
    if (batch_.size() == cap_) {
      apply_batch();
      retry_queue();
    }
  }

  /* A hint that bucket b is coming soon (the buckets outgrow L2 at large c). */
  void prefetch(std::uint32_t bucket) const {
    __builtin_prefetch(&buckets_[bucket]);
    __builtin_prefetch(reinterpret_cast<const char*>(&buckets_[bucket]) + 64);
    __builtin_prefetch(&stamp_[bucket]);
  }

  /* Completes every postponed addition; buckets() is then final. */
  void finish() {
    while (!batch_.empty() || !queue_.empty()) {
      apply_batch();
      retry_queue();
      /* a queue that barely fills a batch collides with itself (one bucket
         for everything): mixed additions beat an inversion per few points */
      if (!queue_.empty() && batch_.size() < 8) {
        for (const pending& e : queue_) side_add(e);
        queue_.clear();
      }
    }
    fold_side_buckets();
  }

  std::span<const affine_t> buckets() const { return buckets_; }
  const accumulator_counters& counters() const { return counters_; }

 private:
  struct pending {
    const Base* p;
    std::uint32_t bucket;
    bool negate;
    bool doubling;  // B_b = P: the slope is the tangent's
  };

  static field_t y_of(const pending& e) { return e.negate ? -ec::y_of(*e.p) : ec::y_of(*e.p); }

  /* Puts B_b += P into the batch, or does it at once when no slope is needed
     (empty bucket, P = -B_b), or queues it when B_b is already in the batch. */
  void place(pending e) {
    if (stamp_[e.bucket] == epoch_) {
      if (queue_.size() < cap_)
        queue_.push_back(e);
      else
        side_add(e);
      return;
    }
    affine_t& b = buckets_[e.bucket];
    if (b.infinity) {
      b = {ec::x_of(*e.p), y_of(e), false};
      return;
    }
    if (b.x == ec::x_of(*e.p)) {
      if (!(b.y == y_of(e)) || b.y.is_zero()) { /* B + (-B) = O; 2B = O when y = 0 */
        b = {};
        return;
      }
      e.doubling = true;
    }
    stamp_[e.bucket] = epoch_;
    batch_.push_back(e);
  }

  /* eight additions at a time where the CPU has AVX-512 IFMA, else one by one */
  void apply_batch() {
    if (batch_.empty()) return;
    if constexpr (ff::ifma::lane_type<field_t>::exists) {
      if (ff::ifma::active && batch_.size() >= min_lane_batch) {
        apply_lanes();
        return finish_batch();
      }
    }
    apply_scalar(batch_);
    finish_batch();
  }

  void finish_batch() {
    counters_.batched += batch_.size();
    ++counters_.batches;
    batch_.clear();
    ++epoch_;  // every bucket is free again
  }

  /* The batch's additions eight at a time (lane_batch.hpp), the doublings among them as below. */
  void apply_lanes() {
    doublings_.clear();
    std::size_t k = 0;
    for (const pending& e : batch_) k += !e.doubling;
    lanes_.start(k);
    std::size_t j = 0;
    for (const pending& e : batch_) {
      if (e.doubling)
        doublings_.push_back(e);
      else
        lanes_.set(j++, &buckets_[e.bucket].x, e.p, e.negate);
    }
    lanes_.run();
    if (!doublings_.empty()) apply_scalar(doublings_);
  }

  /* Montgomery's trick over the batch: with d_j the slope denominators,
     prefix_j = d_0 ... d_{j-1}, inv = (d_0 ... d_{k-1})^-1, then walking back
     1/d_j = inv prefix_j and inv <- inv d_j. 3 multiplications per addition
     and one inversion per batch. */
  void apply_scalar(const std::vector<pending>& batch) {
    const std::size_t k = batch.size();
    field_t acc = field_t::one();
    for (std::size_t j = 0; j < k; ++j) {
      const pending& e = batch[j];
      const affine_t& b = buckets_[e.bucket];
      den_[j] = e.doubling ? b.y.dbl() : ec::x_of(*e.p) - b.x; /* d = 2 y1, or x2 - x1 */
      prefix_[j] = acc;
      acc *= den_[j];
    }
    field_t inv = acc.inverse();
    for (std::size_t j = k; j-- > 0;) {
      const pending& e = batch[j];
      affine_t& b = buckets_[e.bucket];
      field_t dinv = inv * prefix_[j]; /* 1 / d_j */
      inv *= den_[j];                  /* 1 / (d_0 ... d_{j-1}) */
      /* For -P (y2 = -y_P) the slope is computed negated, mu = -lambda, which
         saves negating y_P: lambda^2 = mu^2 and lambda (x1 - x3) = mu (x3 - x1). */
      const bool flip = e.negate && !e.doubling;
      field_t lambda;
      if (e.doubling) {
        field_t xx = b.x.sqr();
        lambda = (xx.dbl() + xx) * dinv; /* lambda = 3 x1^2 / (2 y1) */
      } else if (flip) {
        lambda = (ec::y_of(*e.p) + b.y) * dinv; /* mu = (y_P + y1) / (x2 - x1) */
      } else {
        lambda = (ec::y_of(*e.p) - b.y) * dinv; /* lambda = (y2 - y1) / (x2 - x1) */
      }
      field_t x3 = lambda.sqr() - b.x - ec::x_of(*e.p);  /* x3 = lambda^2 - x1 - x2 */
      b.y = lambda * (flip ? x3 - b.x : b.x - x3) - b.y; /* y3 = lambda (x1 - x3) - y1 */
      b.x = x3;
    }
  }

  /* Moves queued additions into the (just emptied) batch while it has room. */
  void retry_queue() {
    if (queue_.empty()) return;
    retry_.swap(queue_);
    queue_.clear();
    for (std::size_t i = 0; i < retry_.size(); ++i) {
      if (batch_.size() == cap_) {
        queue_.insert(queue_.end(), retry_.begin() + std::ptrdiff_t(i), retry_.end());
        break;
      }
      place(retry_[i]);
    }
    retry_.clear();
  }

  void side_add(const pending& e) {
    if (!in_side_[e.bucket]) {
      in_side_[e.bucket] = 1;
      touched_.push_back(e.bucket);
    }
    side_[e.bucket] += affine_t{ec::x_of(*e.p), y_of(e), false};
    ++counters_.overflow;
  }

  /* B_b += S_b for the touched side buckets: S_b to affine with one shared
     inversion (x = X / ZZ, y = Y / ZZZ, from 1 / (ZZ ZZZ)), then one batch of
     affine additions. */
  void fold_side_buckets() {
    if (touched_.empty()) return;
    const std::size_t k = touched_.size();
    std::vector<field_t> inv(k);
    for (std::size_t i = 0; i < k; ++i) {
      const auto& s = side_[touched_[i]];
      inv[i] = s.ZZ * s.ZZZ; /* zero for a side bucket back at O */
    }
    ec::batch_inverse<field_t>(inv);
    std::vector<affine_t> acc(k), add(k);
    for (std::size_t i = 0; i < k; ++i) {
      const auto& s = side_[touched_[i]];
      acc[i] = buckets_[touched_[i]];
      if (!s.is_identity()) add[i] = {s.X * s.ZZZ * inv[i], s.Y * s.ZZ * inv[i], false}; /* X / ZZ, Y / ZZZ */
    }
    ec::batch_add_affine<field_t>(acc, add);
    for (std::size_t i = 0; i < k; ++i) {
      buckets_[touched_[i]] = acc[i];
      side_[touched_[i]] = {};
      in_side_[touched_[i]] = 0;
    }
    touched_.clear();
  }

  std::vector<affine_t> buckets_;
  std::vector<std::uint32_t> stamp_;  // stamp_[b] == epoch_: b is in the batch
  std::uint32_t epoch_ = 1;
  std::vector<pending> batch_, queue_, retry_, doublings_;
  lane_batch<field_t> lanes_;
  std::vector<field_t> den_, prefix_;
  std::vector<xyzz<Curve>> side_;
  std::vector<std::uint8_t> in_side_;
  std::vector<std::uint32_t> touched_;  // the b with in_side_[b]: side bucket in use
  bool direct_ = false;
  std::size_t cap_ = 1;
  accumulator_counters counters_;
};

}  // namespace cuzk::msm
