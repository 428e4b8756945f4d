// Fp2 squares, square roots and the zcash sign bit against GMP: x is a
// square iff its norm c0^2 + c1^2 is a square in Fp.
#include "fp2_oracle.hpp"

namespace cuzk::test {
namespace {

using ff::fp2_t;
using G = gmp_field<ff::fp_t>;

/* sqrt(x) squares back (on GMP pairs) and is None exactly for non-squares */
::testing::AssertionResult sqrt_agrees(const gmp_fp2& x) {
  auto r = x.element().sqrt();
  if (r.has_value() != x.is_square())
    return ::testing::AssertionFailure() << "sqrt" << x.str() << (r ? " present" : " missing");
  if (r && !(gmp_fp2::value(*r) * gmp_fp2::value(*r) == x))
    return ::testing::AssertionFailure() << "sqrt" << x.str() << " = " << gmp_fp2::value(*r).str()
                                         << " does not square back";
  return ::testing::AssertionSuccess();
}

TEST(Fp2Roots, LegendreIsTheLegendreSymbolOfTheNorm) {
  auto g = test_rng();
  EXPECT_EQ(fp2_t::zero().legendre(), 0);
  for (int i = 0; i < kRandomCases; ++i) {
    auto x = gmp_fp2::random(g);
    mpz_class n = x.norm();
    ASSERT_EQ(x.element().legendre(), mpz_legendre(n.get_mpz_t(), G::p().get_mpz_t())) << "x = " << x.str();
  }
}

TEST(Fp2Roots, SqrtSquaresBackAndIsNoneExactlyForNonSquares) {
  auto g = test_rng();
  int squares = 0;
  for (int i = 0; i < kRandomCases; ++i) {
    auto x = gmp_fp2::random(g);
    squares += x.is_square();
    ASSERT_TRUE(sqrt_agrees(x));
  }
  EXPECT_GT(squares, kRandomCases / 3);
  EXPECT_LT(squares, 2 * kRandomCases / 3);
}

TEST(Fp2Roots, SqrtOfASquareIsThatValueOrItsNegation) {
  auto g = test_rng();
  for (int i = 0; i < kRandomCases / 4; ++i) {
    auto y = gmp_fp2::random(g);
    if (i % 8 == 1) y.c1 = 0;
    if (i % 8 == 2) y.c0 = 0;
    auto r = (y * y).element().sqrt();
    ASSERT_TRUE(r.has_value()) << "y = " << y.str();
    auto root = gmp_fp2::value(*r);
    ASSERT_TRUE(root == y || root == gmp_fp2::of(-y.c0, -y.c1)) << "y = " << y.str() << ", root " << root.str();
  }
}

TEST(Fp2Roots, SqrtOfPurelyRealAndPurelyImaginaryValues) {
  /* c and c u are squares in Fp2 for every c in Fp: both have norm c^2 */
  auto g = test_rng();
  for (int i = 0; i < kRandomCases / 4; ++i) {
    mpz_class c = G::random(g);
    ASSERT_TRUE(sqrt_agrees({c, 0}));
    ASSERT_TRUE(sqrt_agrees({0, c}));
    ASSERT_TRUE(gmp_fp2({c, 0}).is_square());
  }
  for (const auto& c : G::edge_values()) {
    ASSERT_TRUE(sqrt_agrees({c, 0}));
    ASSERT_TRUE(sqrt_agrees({0, c}));
  }
}

TEST(Fp2Roots, SqrtOfEveryPairOfEdgeValues) {
  auto e = G::edge_values();
  for (const auto& a : e)
    for (std::size_t j = 0; j < e.size(); j += 3) ASSERT_TRUE(sqrt_agrees({a, e[j]}));
}

TEST(Fp2Roots, LexicographicallyLargestComparesC1ThenC0WithHalfTheModulus) {
  auto g = test_rng();
  const mpz_class half = (G::p() - 1) / 2;
  auto want = [&](const gmp_fp2& x) { return x.c1 != 0 ? x.c1 > half : x.c0 > half; };
  for (int i = 0; i < kRandomCases; ++i) {
    auto x = gmp_fp2::random(g);
    if (i % 4 == 1) x.c1 = 0;
    ASSERT_EQ(x.element().lexicographically_largest(), want(x)) << "x = " << x.str();
  }
  auto e = G::edge_values();
  for (const auto& a : e)
    for (const auto& b : e) ASSERT_EQ(gmp_fp2({a, b}).element().lexicographically_largest(), want({a, b}));
}

}  // namespace
}  // namespace cuzk::test
