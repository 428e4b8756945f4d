// The zero/one/other split of the scalars (per curve: Fr(C) elements, and
// integers taken mod C's r), and batch addition of the ones.
#include <gtest/gtest.h>

#include <string>

#include "msm/split.hpp"
#include "msm_test_util.hpp"
#include "seed.hpp"

namespace cuzk::msm {
namespace {

template <class C>
class Split : public test::curve_test<C, 401> {};
TYPED_TEST_SUITE(Split, test::curves, cuzk::test::curve_names);

TYPED_TEST(Split, ClassifiesInIndexOrderAndConvertsTheRest) {
  using C = TypeParam;
  using fr_t = ff::fr<C>;
  const std::size_t n = 50000;  // several blocks
  std::vector<fr_t> s(n);
  std::vector<std::uint32_t> ones, others;
  for (std::size_t i = 0; i < n; ++i) {
    const auto u = this->rng() % 4;
    s[i] = u == 0 ? fr_t::zero() : u == 1 ? fr_t::one() : u == 2 ? test::minus_one<C>() : test::random_fr<C>(this->rng);
    if (u == 1) ones.push_back(std::uint32_t(i));
    if (u >= 2 && !s[i].is_one() && !s[i].is_zero()) others.push_back(std::uint32_t(i));
  }
  const auto limbs = test::canonical(s);
  for (const auto& split :
       {split_scalars<C>(std::span<const fr_t>(s)), split_scalars<C>(std::span<const scalar_limbs_t>(limbs))}) {
    EXPECT_EQ(split.ones, ones);
    EXPECT_EQ(split.others, others);
    EXPECT_EQ(split.zeros, n - ones.size() - others.size());
    EXPECT_EQ(split.counts().zeros + split.counts().ones + split.counts().others, n);
    ASSERT_EQ(split.other_scalars.size(), others.size());
    for (std::size_t j = 0; j < others.size(); ++j) ASSERT_EQ(split.other_scalars[j], s[others[j]].to_canonical());
  }
}

/* Integers >= r count as their residue: multiples of r are zeros, r + 1 and
   2r + 1 ones, and the others are stored reduced (2^256 - 1 included). */
TYPED_TEST(Split, CanonicalIntegersAreTakenModR) {
  using C = TypeParam;
  const scalar_limbs_t r = C::fr_params::modulus;
  scalar_limbs_t r_plus_1 = r, two_r, two_r_plus_1, r_plus_2 = r;
  r_plus_1[0] += 1;  // r is odd, no carry
  r_plus_2[0] += 2;
  ASSERT_FALSE(ff::limbs::add(two_r, r, r));  // 2r < 2^256 on both curves
  two_r_plus_1 = two_r;
  two_r_plus_1[0] += 1;
  const scalar_limbs_t max{~0ull, ~0ull, ~0ull, ~0ull};
  const std::vector<scalar_limbs_t> s{r,     r_plus_1,     {0, 0, 0, 0}, {1, 0, 0, 0}, {2, 0, 0, 0},
                                      two_r, two_r_plus_1, r_plus_2,     max};
  const auto split = split_scalars<C>(std::span<const scalar_limbs_t>(s));
  EXPECT_EQ(split.zeros, 3u);
  EXPECT_EQ(split.ones, (std::vector<std::uint32_t>{1, 3, 6}));
  EXPECT_EQ(split.others, (std::vector<std::uint32_t>{4, 7, 8}));
  ASSERT_EQ(split.other_scalars.size(), 3u);
  EXPECT_EQ(split.other_scalars[0], (scalar_limbs_t{2, 0, 0, 0}));
  EXPECT_EQ(split.other_scalars[1], (scalar_limbs_t{2, 0, 0, 0}));
  /* 2^256 - 1 mod r, computed in Fr: 2^256 - 1 = (2^128)^2 - 1 */
  const auto two128 = ff::fr<C>::from_u64(2).pow(std::uint64_t(128));
  EXPECT_EQ(split.other_scalars[2], (two128 * two128 - ff::fr<C>::one()).to_canonical());
  EXPECT_TRUE(ff::limbs::less(split.other_scalars[2], r));
}

/* The BLS12-381 overloads (no curve named) are the BLS12-381 split. */
TEST(SplitBls12_381, UnnamedCurveIsBls12_381) {
  const scalar_limbs_t r = ff::fr_params::modulus;
  const std::vector<scalar_limbs_t> s{r, {1, 0, 0, 0}, curves::bn254::fr_params::modulus};
  const auto split = split_scalars(std::span<const scalar_limbs_t>(s));
  EXPECT_EQ(split.zeros, 1u);
  EXPECT_EQ(split.ones, (std::vector<std::uint32_t>{1}));
  EXPECT_EQ(split.others, (std::vector<std::uint32_t>{2})); /* BN254's r is not 0 mod BLS12-381's */
  const std::vector<fr_t> f{fr_t::zero(), fr_t::one(), -fr_t::one()};
  EXPECT_EQ(split_scalars(f).others, (std::vector<std::uint32_t>{2}));
}

template <class G>
class BatchSum : public test::group_test<G, 402> {};
TYPED_TEST_SUITE(BatchSum, test::all_groups, test::group_names);

TYPED_TEST(BatchSum, MatchesJacobianSumWithRepeatsNegationsAndInfinity) {
  for (std::size_t n : {0, 1, 2, 31, 33, 64, 1000, 20000}) {
    auto pts = TypeParam::random_bases(this->rng, n);
    for (std::size_t i = 0; i + 1 < n; i += 5) pts[i + 1] = pts[i];  /* P + P */
    for (std::size_t i = 0; i + 2 < n; i += 7) pts[i + 2] = -pts[i]; /* P + (-P) */
    for (std::size_t i = 3; i < n; i += 11) pts[i] = {};
    typename TypeParam::jac_t want;
    for (const auto& p : pts) want += p;
    for (int threads : {1, 2}) EXPECT_EQ(TypeParam::sum(pts, threads), want) << n;
  }
}

TYPED_TEST(BatchSum, SameTwoPointsOverAndOver) {
  using fr_t = typename TypeParam::fr_t;
  const auto p = TypeParam::random_point(this->rng).to_affine();
  std::vector<typename TypeParam::aff_t> pts(1000, p);
  EXPECT_EQ(TypeParam::sum(pts), ec::mul(p, fr_t::from_u64(1000)));
  for (std::size_t i = 0; i < pts.size(); i += 2) pts[i] = -p;
  EXPECT_TRUE(TypeParam::sum(pts).is_identity());
}

}  // namespace
}  // namespace cuzk::msm
