// The batch-affine bucket accumulator against per-bucket Jacobian sums, and
// the bucket reduction against sum_b b B_b.
#include <gtest/gtest.h>

#include <string>

#include "msm/bucket_accumulator.hpp"
#include "msm/bucket_reduce.hpp"
#include "msm_test_util.hpp"
#include "seed.hpp"

namespace cuzk::msm {
namespace {

template <class G>
class Buckets : public ::testing::Test {
 protected:
  using jac_t = typename G::jac_t;
  using aff_t = typename G::aff_t;
  std::mt19937_64 rng = cuzk::test::rng(std::hash<std::string>{}(G::curve_t::name) + 201);

  /* Adds points[i] (negated when i % 3 == 0) to bucket of(i); checks every bucket. */
  template <class Of>
  void check(const std::vector<aff_t>& points, std::size_t n_buckets, std::size_t batch, Of of,
             accumulator_counters* counters = nullptr) {
    bucket_accumulator<typename G::curve_t> acc;
    acc.reset(n_buckets, batch);
    std::vector<jac_t> want(n_buckets);
    for (std::size_t i = 0; i < points.size(); ++i) {
      const bool neg = i % 3 == 0;
      const std::size_t b = of(i);
      acc.add(std::uint32_t(b), points[i], neg);
      want[b] += neg ? -points[i] : points[i];
    }
    acc.finish();
    auto ovf = acc.overflow();
    for (std::size_t b = 0; b < n_buckets; ++b) {
      jac_t got = jac_t::from_affine(acc.buckets()[b]);
      if (!ovf.empty()) got += ovf[b].to_jacobian();
      ASSERT_EQ(got, want[b]) << "bucket " << b;
    }
    if (counters) *counters = acc.counters();
  }
};
using Groups = ::testing::Types<test::g1, test::g2>;
TYPED_TEST_SUITE(Buckets, Groups);

TYPED_TEST(Buckets, RandomAssignmentsMatchJacobianSums) {
  auto points = TypeParam::random_bases(this->rng, 2000);
  accumulator_counters counters;
  this->check(points, 64, 16, [&](std::size_t i) { return (i * 7919) % 64; }, &counters);
  EXPECT_GT(counters.batched, 1500u);
  this->check(points, 512, 128, [&](std::size_t) { return this->rng() % 512; });
}

TYPED_TEST(Buckets, OneBucketForEverythingGoesToOverflow) {
  auto points = TypeParam::random_bases(this->rng, 500);
  accumulator_counters counters;
  this->check(points, 8, 4, [](std::size_t) { return 5; }, &counters);
  EXPECT_GT(counters.overflow, 0u);
}

TYPED_TEST(Buckets, RepeatedAndOppositePointsDoubleAndCancel) {
  const auto p = TypeParam::random_point(this->rng).to_affine();
  const auto q = TypeParam::random_point(this->rng).to_affine();
  std::vector<typename TypeParam::aff_t> points;
  for (int i = 0; i < 300; ++i) points.push_back(i % 2 ? p : q);
  for (std::size_t batch : {1, 2, 64})
    this->check(points, 4, batch, [](std::size_t i) { return (i / 2) % 4; });
  /* -P, P, P into one bucket (check() negates i % 3 == 0): O, then P */
  this->check({p, p, p}, 1, 8, [](std::size_t) { return 0; });
}

TYPED_TEST(Buckets, ReductionIsTheWeightedSumOfBuckets) {
  using X = xyzz<typename TypeParam::curve_t>;
  for (std::size_t m : {1, 2, 5, 64}) {
    auto pts = TypeParam::random_bases(this->rng, m);
    /* leave gaps of empty buckets, and put part of the sums in overflow */
    for (std::size_t i = 0; i < m; i += 3) pts[i] = {};
    std::vector<X> ovf(m);
    typename TypeParam::jac_t want;
    for (std::size_t i = 0; i < m; ++i) {
      if (i % 4 == 1) ovf[i] += TypeParam::random_point(this->rng).to_affine();
      auto b = TypeParam::jac_t::from_affine(pts[i]) + ovf[i].to_jacobian();
      want += ec::mul(b, scalar_limbs_t{i + 1, 0, 0, 0});  /* (i + 1) B_i */
    }
    EXPECT_EQ(reduce_buckets<typename TypeParam::curve_t>(pts, ovf), want) << m;
    std::vector<typename TypeParam::aff_t> empty(m);
    EXPECT_TRUE(reduce_buckets<typename TypeParam::curve_t>(empty, {}).is_identity());
  }
}

}  // namespace
}  // namespace cuzk::msm
