// The zero/one/other split of the scalars, and batch addition of the ones.
#include <gtest/gtest.h>

#include <string>

#include "msm/split.hpp"
#include "msm_test_util.hpp"
#include "seed.hpp"

namespace cuzk::msm {
namespace {

TEST(Split, ClassifiesInIndexOrderAndConvertsTheRest) {
  auto rng = cuzk::test::rng(401);
  const std::size_t n = 50000;  // several blocks
  std::vector<fr_t> s(n);
  std::vector<std::uint32_t> ones, others;
  for (std::size_t i = 0; i < n; ++i) {
    const auto u = rng() % 3;
    s[i] = u == 0 ? fr_t::zero() : u == 1 ? fr_t::one() : test::random_fr(rng);
    if (u == 1) ones.push_back(std::uint32_t(i));
    if (u == 2 && !s[i].is_one() && !s[i].is_zero()) others.push_back(std::uint32_t(i));
  }
  for (const auto& split : {split_scalars(std::span<const fr_t>(s)), split_scalars(std::span<const scalar_limbs_t>(test::canonical(s)))}) {
    EXPECT_EQ(split.ones, ones);
    EXPECT_EQ(split.others, others);
    EXPECT_EQ(split.zeros, n - ones.size() - others.size());
    ASSERT_EQ(split.other_scalars.size(), others.size());
    for (std::size_t j = 0; j < others.size(); ++j) ASSERT_EQ(split.other_scalars[j], s[others[j]].to_canonical());
  }
}

TEST(Split, CanonicalOneAndZeroAreRecognisedModR) {
  const scalar_limbs_t r = ff::fr_params::modulus;
  scalar_limbs_t r_plus_1 = r;
  r_plus_1[0] += 1;  // r is odd, no carry
  const std::vector<scalar_limbs_t> s{r, r_plus_1, {0, 0, 0, 0}, {1, 0, 0, 0}, {2, 0, 0, 0}
};
  const auto split = split_scalars(std::span<const scalar_limbs_t>(s));
  EXPECT_EQ(split.zeros, 2u);
  EXPECT_EQ(split.ones, (std::vector<std::uint32_t>{1, 3}));
  EXPECT_EQ(split.others, (std::vector<std::uint32_t>{4}));
}

template <class G>
class BatchSum : public cuzk::test::group_test<G, 402> {};
TYPED_TEST_SUITE(BatchSum, test::both_groups);

TYPED_TEST(BatchSum, MatchesJacobianSumWithRepeatsNegationsAndInfinity) {
  for (std::size_t n : {0, 1, 2, 31, 33, 64, 1000, 20000}) {
    auto pts = TypeParam::random_bases(this->rng, n);
    for (std::size_t i = 0; i + 1 < n; i += 5) pts[i + 1] = pts[i];   /* P + P */
    for (std::size_t i = 0; i + 2 < n; i += 7) pts[i + 2] = -pts[i];  /* P + (-P) */
    for (std::size_t i = 3; i < n; i += 11) pts[i] = {};
    typename TypeParam::jac_t want;
    for (const auto& p : pts) want += p;
    for (int threads : {1, 2}) EXPECT_EQ(TypeParam::sum(pts, threads), want) << n;
  }
}

TYPED_TEST(BatchSum, SameTwoPointsOverAndOver) {
  const auto p = TypeParam::random_point(this->rng).to_affine();
  std::vector<typename TypeParam::aff_t> pts(1000, p);
  EXPECT_EQ(TypeParam::sum(pts), ec::mul(p, fr_t::from_u64(1000)));
  for (std::size_t i = 0; i < pts.size(); i += 2) pts[i] = -p;
  EXPECT_TRUE(TypeParam::sum(pts).is_identity());
}

}  // namespace
}  // namespace cuzk::msm
