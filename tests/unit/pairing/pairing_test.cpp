// The optimal ate pairing of each curve: bilinearity, non-degeneracy, order
// r, multi-pairing, infinity, and the final exponentiation against a plain
// exponentiation by c (p^12 - 1) / r (c = 3 on BLS12-381, 2x (6x^2 + 3x + 1)
// on BN254: the conventions of zcash/blst/noble and arkworks/gnark/noble).
#include <gtest/gtest.h>

#include <vector>

#include "pairing/pairing.hpp"
#include "seed.hpp"
#include "test_points.hpp"
#include "tower_random.hpp"

namespace cuzk::test {
namespace {

template <class C>
class Pairing : public ::testing::Test {};
TYPED_TEST_SUITE(Pairing, curves_under_test, curve_names);

/* c (p^12 - 1) / r, from GMP: an exponent below p^12 fits in 12 N limbs */
template <class C>
const ff::limbs::big<12 * tower_of<C>::N>& final_exponent() {
  static const auto e = [] {
    mpz_class n = p_pow<C>(12) - 1;
    EXPECT_TRUE(mpz_divisible_p(n.get_mpz_t(), mpz_r<C>().get_mpz_t()));
    return to_limbs<12 * tower_of<C>::N>(curve_facts<C>::final_exponent_factor() * (n / mpz_r<C>()));
  }();
  return e;
}

TYPED_TEST(Pairing, GeneratorsAreOnTheirCurves) {
  /* G1: y^2 = x^3 + b; G2: y^2 = x^3 + b xi (M-twist) or b / xi (D-twist),
     with b and xi from curve_facts */
  using T = tower_of<TypeParam>;
  using F = curve_facts<TypeParam>;
  auto g1 = g1_generator<TypeParam>();
  auto g2 = g2_generator<TypeParam>();
  ASSERT_FALSE(g1.infinity || g2.infinity);
  const auto b = T::fp_t::from_u64(F::b);
  EXPECT_EQ(g1.y.sqr(), g1.x.sqr() * g1.x + b);
  const typename T::fp2_t b2 = F::m_twist ? T::xi() * b : T::xi().inverse() * b;
  EXPECT_EQ(g2.y.sqr(), g2.x.sqr() * g2.x + b2);
}

TYPED_TEST(Pairing, FinalExponentiationIsThePowerCTimesP12Minus1OverR) {
  using T = tower_of<TypeParam>;
  auto g = curve_rng<TypeParam>(91);
  auto f = pairing::miller_loop(random_g1<TypeParam>(g), random_g2<TypeParam>(g));
  EXPECT_EQ(pairing::final_exponentiation(f), f.pow(final_exponent<TypeParam>()));
  auto a = T::random_fp12(g);  // any non-zero element, not only Miller loop values
  EXPECT_EQ(pairing::final_exponentiation(a), a.pow(final_exponent<TypeParam>()));
}

/* c is prime to r, so the c-th power keeps e bilinear and non-degenerate */
TYPED_TEST(Pairing, FinalExponentFactorIsPrimeToR) {
  mpz_class g;
  const mpz_class c = curve_facts<TypeParam>::final_exponent_factor();
  mpz_gcd(g.get_mpz_t(), c.get_mpz_t(), mpz_r<TypeParam>().get_mpz_t());
  EXPECT_EQ(g, 1);
}

TYPED_TEST(Pairing, IsNonDegenerate) {
  auto e = pairing::pairing(g1_generator<TypeParam>(), g2_generator<TypeParam>());
  EXPECT_FALSE(e.is_one());
  EXPECT_FALSE(e.is_zero());
}

TYPED_TEST(Pairing, ValuesHaveOrderR) {
  auto g = curve_rng<TypeParam>(92);
  auto r = to_limbs<4>(mpz_r<TypeParam>());
  EXPECT_TRUE(pairing::pairing(g1_generator<TypeParam>(), g2_generator<TypeParam>()).pow(r).is_one());
  EXPECT_TRUE(pairing::pairing(random_g1<TypeParam>(g), random_g2<TypeParam>(g)).pow(r).is_one());
}

TYPED_TEST(Pairing, IsBilinear) {
  using T = tower_of<TypeParam>;
  auto g = curve_rng<TypeParam>(93);
  for (int i = 0; i < 3; ++i) {
    auto p = random_g1<TypeParam>(g);
    auto q = random_g2<TypeParam>(g);
    auto a = T::random_fr(g), b = T::random_fr(g);
    auto lhs = pairing::pairing(scalar_mul(p, a), scalar_mul(q, b));
    EXPECT_EQ(lhs, pairing::pairing(p, q).pow((a * b).to_canonical()));
  }
}

TYPED_TEST(Pairing, ScalarMovesBetweenArguments) {
  using T = tower_of<TypeParam>;
  auto g = curve_rng<TypeParam>(94);
  auto p = random_g1<TypeParam>(g);
  auto q = random_g2<TypeParam>(g);
  auto a = T::random_fr(g);
  EXPECT_EQ(pairing::pairing(scalar_mul(p, a), q), pairing::pairing(p, scalar_mul(q, a)));
}

TYPED_TEST(Pairing, IsAdditiveInEachArgument) {
  auto g = curve_rng<TypeParam>(95);
  auto p1 = random_g1<TypeParam>(g), p2 = random_g1<TypeParam>(g);
  auto q1 = random_g2<TypeParam>(g), q2 = random_g2<TypeParam>(g);
  EXPECT_EQ(pairing::pairing(point_add(p1, p2), q1), pairing::pairing(p1, q1) * pairing::pairing(p2, q1));
  EXPECT_EQ(pairing::pairing(p1, point_add(q1, q2)), pairing::pairing(p1, q1) * pairing::pairing(p1, q2));
}

TYPED_TEST(Pairing, NegatedPointGivesTheInverse) {
  auto g = curve_rng<TypeParam>(96);
  auto p = random_g1<TypeParam>(g);
  auto q = random_g2<TypeParam>(g);
  EXPECT_TRUE((pairing::pairing(p, q) * pairing::pairing(-p, q)).is_one());
  EXPECT_TRUE((pairing::pairing(p, q) * pairing::pairing(p, -q)).is_one());
  std::vector<pairing::g1_g2_pair_of<TypeParam>> pairs{{p, q}, {-p, q}};
  EXPECT_TRUE(pairing::multi_pairing<TypeParam>(pairs).is_one());
}

TYPED_TEST(Pairing, MultiPairingIsTheProductOfPairings) {
  using fp12_t = typename tower_of<TypeParam>::fp12_t;
  auto g = curve_rng<TypeParam>(97);
  std::vector<pairing::g1_g2_pair_of<TypeParam>> pairs;
  fp12_t product = fp12_t::one(), loops = fp12_t::one();
  for (int i = 0; i < 4; ++i) {
    pairs.emplace_back(random_g1<TypeParam>(g), random_g2<TypeParam>(g));
    product *= pairing::pairing(pairs.back().first, pairs.back().second);
    loops *= pairing::miller_loop(pairs.back().first, pairs.back().second);
  }
  EXPECT_EQ(pairing::multi_pairing<TypeParam>(pairs), product);
  EXPECT_EQ(pairing::multi_miller_loop<TypeParam>(pairs), loops);
}

TYPED_TEST(Pairing, InfinityContributesOne) {
  using g1_t = ec::g1_affine<TypeParam>;
  using g2_t = ec::g2_affine<TypeParam>;
  auto g = curve_rng<TypeParam>(98);
  auto p = random_g1<TypeParam>(g);
  auto q = random_g2<TypeParam>(g);
  EXPECT_TRUE(pairing::pairing(g1_t::identity(), q).is_one());
  EXPECT_TRUE(pairing::pairing(p, g2_t::identity()).is_one());
  EXPECT_TRUE(pairing::multi_pairing<TypeParam>({}).is_one());
  std::vector<pairing::g1_g2_pair_of<TypeParam>> pairs{{p, q}, {g1_t::identity(), q}, {p, g2_t::identity()}};
  EXPECT_EQ(pairing::multi_pairing<TypeParam>(pairs), pairing::pairing(p, q));
}

}  // namespace
}  // namespace cuzk::test
