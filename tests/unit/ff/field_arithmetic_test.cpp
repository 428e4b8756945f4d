// Fp and Fr ring operations of BLS12-381 and BN254 against GMP, on random
// inputs and on every pair of edge values.
#include "gmp_oracle.hpp"

namespace cuzk::test {
namespace {

template <class F>
class FieldArithmetic : public ::testing::Test {};
TYPED_TEST_SUITE(FieldArithmetic, prime_fields, field_names);

TYPED_TEST(FieldArithmetic, AdditionAgreesWithGmp) {
  using G = gmp_field<TypeParam>;
  auto g = test_rng();
  for (int i = 0; i < kRandomCases; ++i) {
    mpz_class x = G::random(g), y = G::random(g);
    auto a = G::element(x);
    ASSERT_TRUE(G::agrees(a + G::element(y), x + y)) << "x = " << hex(x) << ", y = " << hex(y);
    ASSERT_TRUE(G::agrees(a += G::element(y), x + y)) << "x = " << hex(x) << ", y = " << hex(y);
  }
}

TYPED_TEST(FieldArithmetic, SubtractionAgreesWithGmp) {
  using G = gmp_field<TypeParam>;
  auto g = test_rng();
  for (int i = 0; i < kRandomCases; ++i) {
    mpz_class x = G::random(g), y = G::random(g);
    auto a = G::element(x);
    ASSERT_TRUE(G::agrees(a - G::element(y), x - y)) << "x = " << hex(x) << ", y = " << hex(y);
    ASSERT_TRUE(G::agrees(a -= G::element(y), x - y)) << "x = " << hex(x) << ", y = " << hex(y);
  }
}

TYPED_TEST(FieldArithmetic, MultiplicationAgreesWithGmp) {
  using G = gmp_field<TypeParam>;
  auto g = test_rng();
  for (int i = 0; i < kRandomCases; ++i) {
    mpz_class x = G::random(g), y = G::random(g);
    auto a = G::element(x);
    ASSERT_TRUE(G::agrees(a * G::element(y), x * y)) << "x = " << hex(x) << ", y = " << hex(y);
    ASSERT_TRUE(G::agrees(a *= G::element(y), x * y)) << "x = " << hex(x) << ", y = " << hex(y);
  }
}

TYPED_TEST(FieldArithmetic, NegationDoublingAndSquaringAgreeWithGmp) {
  using G = gmp_field<TypeParam>;
  auto g = test_rng();
  for (int i = 0; i < kRandomCases; ++i) {
    mpz_class x = G::random(g);
    auto a = G::element(x);
    ASSERT_TRUE(G::agrees(-a, -x)) << "x = " << hex(x);
    ASSERT_TRUE(G::agrees(a.dbl(), 2 * x)) << "x = " << hex(x);
    ASSERT_TRUE(G::agrees(a.sqr(), x * x)) << "x = " << hex(x);
  }
}

TYPED_TEST(FieldArithmetic, InverseAgreesWithGmpAndZeroMapsToZero) {
  using G = gmp_field<TypeParam>;
  auto g = test_rng();
  ASSERT_TRUE(TypeParam::zero().inverse().is_zero());
  for (int i = 0; i < kRandomCases; ++i) {
    mpz_class x = G::random(g), want;
    if (x == 0) continue;
    mpz_invert(want.get_mpz_t(), x.get_mpz_t(), G::p().get_mpz_t());
    ASSERT_TRUE(G::agrees(G::element(x).inverse(), want)) << "x = " << hex(x);
  }
}

TYPED_TEST(FieldArithmetic, PowerAgreesWithGmpForNarrowFullAndWideExponents) {
  using G = gmp_field<TypeParam>;
  constexpr std::size_t N = TypeParam::n_limbs;
  auto g = test_rng();
  auto powm = [](const mpz_class& x, const mpz_class& e) {
    mpz_class r;
    mpz_powm(r.get_mpz_t(), x.get_mpz_t(), e.get_mpz_t(), G::p().get_mpz_t());
    return r;
  };
  for (int i = 0; i < kRandomCases; ++i) {
    mpz_class x = G::random(g);
    auto a = G::element(x);
    std::uint64_t e64 = g() >> (g() % 64);
    ASSERT_TRUE(G::agrees(a.pow(e64), powm(x, e64))) << "x = " << hex(x) << ", e = " << e64;
    if (i % 4 == 0) {
      ff::limbs::big<N> e;
      for (auto& w : e) w = g();
      ASSERT_TRUE(G::agrees(a.pow(e), powm(x, to_mpz(e)))) << "x = " << hex(x) << ", e = " << hex(to_mpz(e));
    } else if (i % 4 == 1) {
      ff::limbs::big<2 * N> e;
      for (auto& w : e) w = g();
      ASSERT_TRUE(G::agrees(a.pow(e), powm(x, to_mpz(e)))) << "x = " << hex(x) << ", e = " << hex(to_mpz(e));
    }
  }
  ASSERT_TRUE(TypeParam::zero().pow(0).is_one());
  ASSERT_TRUE(TypeParam::zero().pow(ff::limbs::big<N>{}).is_one());
}

TYPED_TEST(FieldArithmetic, EqualityMatchesEqualityOfValues) {
  using G = gmp_field<TypeParam>;
  auto g = test_rng();
  for (int i = 0; i < kRandomCases; ++i) {
    mpz_class x = G::random(g), y = i % 2 ? x : G::random(g);
    EXPECT_EQ(G::element(x) == G::element(y), x == y) << "x = " << hex(x) << ", y = " << hex(y);
    ASSERT_TRUE(G::element(x) == G::element(x));
    ASSERT_FALSE(G::element(x) == G::element(x + 1));
  }
}

TYPED_TEST(FieldArithmetic, ZeroOneAndSmallIntegersAgreeWithGmp) {
  using G = gmp_field<TypeParam>;
  auto g = test_rng();
  EXPECT_TRUE(G::agrees(TypeParam::zero(), 0));
  EXPECT_TRUE(G::agrees(TypeParam::one(), 1));
  EXPECT_TRUE(TypeParam::zero().is_zero() && !TypeParam::zero().is_one());
  EXPECT_TRUE(TypeParam::one().is_one() && !TypeParam::one().is_zero());
  for (int i = 0; i < kRandomCases; ++i) {
    std::uint64_t v = g() >> (g() % 64);
    mpz_class z;
    mpz_import(z.get_mpz_t(), 1, -1, sizeof v, 0, 0, &v);
    ASSERT_TRUE(G::agrees(TypeParam::from_u64(v), z)) << "v = " << v;
    ASSERT_EQ(TypeParam::from_u64(v).is_zero(), v == 0);
    ASSERT_EQ(TypeParam::from_u64(v).is_one(), v == 1);
  }
}

TYPED_TEST(FieldArithmetic, EveryPairOfEdgeValuesAgreesWithGmp) {
  using G = gmp_field<TypeParam>;
  auto edges = G::edge_values();
  for (const auto& x : edges) {
    auto a = G::element(x);
    ASSERT_TRUE(G::agrees(-a, -x)) << "x = " << hex(x);
    ASSERT_TRUE(G::agrees(a.dbl(), 2 * x)) << "x = " << hex(x);
    ASSERT_TRUE(G::agrees(a.sqr(), x * x)) << "x = " << hex(x);
    if (x != 0) {
      ASSERT_TRUE(G::agrees(a.inverse() * a, 1)) << "x = " << hex(x);
    }
    for (const auto& y : edges) {
      auto b = G::element(y);
      ASSERT_TRUE(G::agrees(a + b, x + y)) << "x = " << hex(x) << ", y = " << hex(y);
      ASSERT_TRUE(G::agrees(a - b, x - y)) << "x = " << hex(x) << ", y = " << hex(y);
      ASSERT_TRUE(G::agrees(a * b, x * y)) << "x = " << hex(x) << ", y = " << hex(y);
      ASSERT_EQ(a == b, x == y) << "x = " << hex(x) << ", y = " << hex(y);
    }
  }
}

}  // namespace
}  // namespace cuzk::test
