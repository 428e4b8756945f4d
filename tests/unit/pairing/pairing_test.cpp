// The optimal ate pairing: bilinearity, non-degeneracy, order r, multi-pairing,
// infinity, and the final exponentiation against a plain exponentiation by
// 3 (p^12 - 1) / r.
#include <gtest/gtest.h>

#include <vector>

#include "pairing/pairing.hpp"
#include "seed.hpp"
#include "test_points.hpp"
#include "tower_random.hpp"

namespace cuzk::test {
namespace {

using ec::g1_affine_t;
using ec::g2_affine_t;
using ff::fp12_t;
using ff::fr_t;
using pairing::g1_g2_pair;
using pairing::gt_t;

g1_affine_t random_g1(std::mt19937_64& g) { return scalar_mul(g1_generator(), random_fr(g)); }
g2_affine_t random_g2(std::mt19937_64& g) { return scalar_mul(g2_generator(), random_fr(g)); }

/* 3 (p^12 - 1) / r, the exponent of the zcash / blst / noble convention */
const ff::limbs::big<72>& final_exponent() {
  static const auto e = [] {
    mpz_class n = p_pow(12) - 1;
    EXPECT_TRUE(mpz_divisible_p(n.get_mpz_t(), mpz_r().get_mpz_t()));
    return to_limbs<72>(3 * (n / mpz_r()));
  }();
  return e;
}

TEST(Pairing, GeneratorsAreOnTheirCurves) {
  auto g1 = g1_generator();
  auto g2 = g2_generator();
  EXPECT_EQ(g1.y.sqr(), g1.x.sqr() * g1.x + ff::fp_t::from_u64(4));
  ff::fp_t four = ff::fp_t::from_u64(4);
  EXPECT_EQ(g2.y.sqr(), g2.x.sqr() * g2.x + ff::fp2_t({four, four}));
}

TEST(Pairing, FinalExponentiationIsThePowerThreeTimesP12Minus1OverR) {
  auto g = rng(91);
  fp12_t f = pairing::miller_loop(random_g1(g), random_g2(g));
  EXPECT_EQ(pairing::final_exponentiation(f), f.pow(final_exponent()));
  fp12_t a = random_fp12(g);  // any non-zero element, not only Miller loop values
  EXPECT_EQ(pairing::final_exponentiation(a), a.pow(final_exponent()));
}

TEST(Pairing, IsNonDegenerate) {
  gt_t e = pairing::pairing(g1_generator(), g2_generator());
  EXPECT_FALSE(e.is_one());
  EXPECT_FALSE(e.is_zero());
}

TEST(Pairing, ValuesHaveOrderR) {
  auto g = rng(92);
  auto r = to_limbs<4>(mpz_r());
  EXPECT_TRUE(pairing::pairing(g1_generator(), g2_generator()).pow(r).is_one());
  EXPECT_TRUE(pairing::pairing(random_g1(g), random_g2(g)).pow(r).is_one());
}

TEST(Pairing, IsBilinear) {
  auto g = rng(93);
  for (int i = 0; i < 3; ++i) {
    g1_affine_t p = random_g1(g);
    g2_affine_t q = random_g2(g);
    fr_t a = random_fr(g), b = random_fr(g);
    gt_t lhs = pairing::pairing(scalar_mul(p, a), scalar_mul(q, b));
    EXPECT_EQ(lhs, pairing::pairing(p, q).pow((a * b).to_canonical()));
  }
}

TEST(Pairing, ScalarMovesBetweenArguments) {
  auto g = rng(94);
  g1_affine_t p = random_g1(g);
  g2_affine_t q = random_g2(g);
  fr_t a = random_fr(g);
  EXPECT_EQ(pairing::pairing(scalar_mul(p, a), q), pairing::pairing(p, scalar_mul(q, a)));
}

TEST(Pairing, IsAdditiveInEachArgument) {
  auto g = rng(95);
  g1_affine_t p1 = random_g1(g), p2 = random_g1(g);
  g2_affine_t q1 = random_g2(g), q2 = random_g2(g);
  EXPECT_EQ(pairing::pairing(point_add(p1, p2), q1), pairing::pairing(p1, q1) * pairing::pairing(p2, q1));
  EXPECT_EQ(pairing::pairing(p1, point_add(q1, q2)), pairing::pairing(p1, q1) * pairing::pairing(p1, q2));
}

TEST(Pairing, NegatedPointGivesTheInverse) {
  auto g = rng(96);
  g1_affine_t p = random_g1(g);
  g2_affine_t q = random_g2(g);
  EXPECT_TRUE((pairing::pairing(p, q) * pairing::pairing(-p, q)).is_one());
  EXPECT_TRUE((pairing::pairing(p, q) * pairing::pairing(p, -q)).is_one());
  std::vector<g1_g2_pair> pairs{{p, q}, {-p, q}};
  EXPECT_TRUE(pairing::multi_pairing(pairs).is_one());
}

TEST(Pairing, MultiPairingIsTheProductOfPairings) {
  auto g = rng(97);
  std::vector<g1_g2_pair> pairs;
  fp12_t product = fp12_t::one(), loops = fp12_t::one();
  for (int i = 0; i < 4; ++i) {
    pairs.emplace_back(random_g1(g), random_g2(g));
    product *= pairing::pairing(pairs.back().first, pairs.back().second);
    loops *= pairing::miller_loop(pairs.back().first, pairs.back().second);
  }
  EXPECT_EQ(pairing::multi_pairing(pairs), product);
  EXPECT_EQ(pairing::multi_miller_loop(pairs), loops);
}

TEST(Pairing, InfinityContributesOne) {
  auto g = rng(98);
  g1_affine_t p = random_g1(g);
  g2_affine_t q = random_g2(g);
  EXPECT_TRUE(pairing::pairing(g1_affine_t::identity(), q).is_one());
  EXPECT_TRUE(pairing::pairing(p, g2_affine_t::identity()).is_one());
  EXPECT_TRUE(pairing::multi_pairing({}).is_one());
  std::vector<g1_g2_pair> pairs{{p, q}, {g1_affine_t::identity(), q}, {p, g2_affine_t::identity()}};
  EXPECT_EQ(pairing::multi_pairing(pairs), pairing::pairing(p, q));
}

}  // namespace
}  // namespace cuzk::test
