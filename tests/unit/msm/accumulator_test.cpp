// The batch-affine bucket accumulator against per-bucket Jacobian sums, and
// both bucket reductions against sum_b b B_b, in G1 and G2 of every curve.
#include <gtest/gtest.h>

#include <string>

#include "msm/bucket_accumulator.hpp"
#include "msm/bucket_reduce.hpp"
#include "msm/bucket_reduce_batched.hpp"
#include "msm_test_util.hpp"
#include "seed.hpp"

namespace cuzk::msm {
namespace {

template <class G>
class Buckets : public test::group_test<G, 201> {
 protected:
  using jac_t = typename G::jac_t;
  using aff_t = typename G::aff_t;
  bucket_accumulator<typename G::curve_t> acc;  // reused across checks, as the MSM does

  /* Adds points[i] (negated when i % 3 == 0) to bucket of(i); checks every bucket. */
  template <class Of>
  void check(const std::vector<aff_t>& points, std::size_t n_buckets, std::size_t batch, Of of,
             accumulator_counters* counters = nullptr) {
    acc.reset(n_buckets, batch);
    std::vector<jac_t> want(n_buckets);
    for (std::size_t i = 0; i < points.size(); ++i) {
      const bool neg = i % 3 == 0;
      const std::size_t b = of(i);
      acc.add(std::uint32_t(b), points[i], neg);
      want[b] += neg ? -points[i] : points[i];
    }
    acc.finish();
    for (std::size_t b = 0; b < n_buckets; ++b)
      ASSERT_EQ(jac_t::from_affine(acc.buckets()[b]), want[b]) << "bucket " << b;
    if (counters) *counters = acc.counters();
  }
};
TYPED_TEST_SUITE(Buckets, test::all_groups, test::group_names);

TYPED_TEST(Buckets, RandomAssignmentsMatchJacobianSums) {
  auto points = TypeParam::random_bases(this->rng, 2000);
  accumulator_counters counters;
  this->check(
      points, 64, 16, [&](std::size_t i) { return (i * 7919) % 64; }, &counters);
  EXPECT_GT(counters.batched, 1500u);
  this->check(points, 512, 128, [&](std::size_t) { return this->rng() % 512; });
}

TYPED_TEST(Buckets, OneBucketForEverythingGoesToSideBuckets) {
  auto points = TypeParam::random_bases(this->rng, 500);
  accumulator_counters counters;
  this->check(
      points, 8, 4, [](std::size_t) { return 5; }, &counters);
  EXPECT_GT(counters.overflow, 0u);
  /* direct mode: everything through the side buckets, folded back at the end */
  this->check(
      points, 8, 0, [](std::size_t i) { return i % 3; }, &counters);
  this->check(points, 300, 64, [](std::size_t i) { return (i * i) % 300; });
}

TYPED_TEST(Buckets, RepeatedAndOppositePointsDoubleAndCancel) {
  const auto p = TypeParam::random_point(this->rng).to_affine();
  const auto q = TypeParam::random_point(this->rng).to_affine();
  std::vector<typename TypeParam::aff_t> points;
  for (int i = 0; i < 300; ++i) points.push_back(i % 2 ? p : q);
  for (std::size_t batch : {1, 2, 64}) this->check(points, 4, batch, [](std::size_t i) { return (i / 2) % 4; });
  /* -P, P, P into one bucket (check() negates i % 3 == 0): O, then P */
  this->check({p, p, p}, 1, 8, [](std::size_t) { return 0; });
}

/* The eight-lane batches (lane_batch.hpp, where the CPU has AVX-512 IFMA) and the scalar ones, each against the
   Jacobian sums: large batches with repeated points (doublings, which the lanes leave to the scalar path) and
   opposite ones. */
TYPED_TEST(Buckets, LanesAndScalarBatchesBothMatchJacobianSums) {
  const bool lanes_here = ff::ifma::active;
  auto points = TypeParam::random_bases(this->rng, 3000);
  for (std::size_t i = 50; i < points.size(); i += 97) points[i] = points[i - 50];
  for (const bool lanes : {false, true}) {
    if (lanes && !lanes_here) continue;  // no IFMA here, or CUZK_FF_PLAIN: the scalar path only
    ff::ifma::active = lanes;
    accumulator_counters counters;
    this->check(
        points, 1024, 256, [&](std::size_t i) { return (i * 7919) % 1024; }, &counters);
    this->check(points, 64, 33, [&](std::size_t i) { return i % 64; });
    ff::ifma::active = lanes_here;
    ASSERT_FALSE(this->HasFatalFailure()) << (lanes ? "lanes" : "scalar");
    EXPECT_GT(counters.batched, 1900u);  // 3000 less the first point of each bucket
  }
}

TYPED_TEST(Buckets, BothReductionsGiveTheWeightedSumOfBuckets) {
  using C = typename TypeParam::curve_t;
  batched_reducer<C> batched;
  for (std::size_t m : {1, 2, 5, 64, 100, 1000, 4096}) {
    auto b = TypeParam::random_bases(this->rng, m);
    /* gaps of empty buckets, equal and opposite neighbours (the running sums
       then meet P + P and P + (-P)) */
    for (std::size_t i = 0; i < m; i += 3) b[i] = {};
    for (std::size_t i = 4; i < m; i += 17) b[i] = b[i - 3];
    for (std::size_t i = 7; i < m; i += 19) b[i] = -b[i - 2];
    typename TypeParam::jac_t want;
    if (m <= 100) {
      for (std::size_t i = 0; i < m; ++i)
        want += ec::mul(TypeParam::jac_t::from_affine(b[i]), scalar_limbs_t{i + 1, 0, 0, 0});
    } else {
      /* sum_i (i + 1) B_i = sum_i sum_{j >= i} B_j */
      typename TypeParam::jac_t suffix;
      for (std::size_t i = m; i-- > 0;) {
        suffix += b[i];
        want += suffix;
      }
    }
    EXPECT_EQ(reduce_buckets<C>(b), want) << m;
    EXPECT_EQ(batched.reduce(b), want) << m;
    std::vector<typename TypeParam::aff_t> empty(m);
    EXPECT_TRUE(reduce_buckets<C>(empty).is_identity());
    EXPECT_TRUE(batched.reduce(empty).is_identity());
  }
}

}  // namespace
}  // namespace cuzk::msm
