// Fp2 squares, square roots and the zcash sign bit against GMP, for the Fp2
// of each curve (BLS12-381, BN254): x is a square iff its norm c0^2 + c1^2 is
// a square in Fp.
#include "fp2_oracle.hpp"

namespace cuzk::test {
namespace {

template <class C>
class Fp2Roots : public ::testing::Test {};
TYPED_TEST_SUITE(Fp2Roots, curves_under_test, curve_names);

/* sqrt(x) squares back (on GMP pairs) and is None exactly for non-squares */
template <class C>
::testing::AssertionResult sqrt_agrees(const gmp_fp2<C>& x) {
  using X = gmp_fp2<C>;
  auto r = x.element().sqrt();
  if (r.has_value() != x.is_square())
    return ::testing::AssertionFailure() << "sqrt" << x.str() << (r ? " present" : " missing");
  if (r && !(X::value(*r) * X::value(*r) == x))
    return ::testing::AssertionFailure() << "sqrt" << x.str() << " = " << X::value(*r).str() << " does not square back";
  return ::testing::AssertionSuccess();
}

TYPED_TEST(Fp2Roots, LegendreIsTheLegendreSymbolOfTheNorm) {
  using X = gmp_fp2<TypeParam>;
  using G = typename X::G;
  auto g = test_rng();
  EXPECT_EQ(ff::fp2<TypeParam>::zero().legendre(), 0);
  for (int i = 0; i < kRandomCases; ++i) {
    auto x = X::random(g);
    mpz_class n = x.norm();
    ASSERT_EQ(x.element().legendre(), mpz_legendre(n.get_mpz_t(), G::p().get_mpz_t())) << "x = " << x.str();
  }
}

TYPED_TEST(Fp2Roots, SqrtSquaresBackAndIsNoneExactlyForNonSquares) {
  using X = gmp_fp2<TypeParam>;
  auto g = test_rng();
  int squares = 0;
  for (int i = 0; i < kRandomCases; ++i) {
    auto x = X::random(g);
    squares += x.is_square();
    ASSERT_TRUE(sqrt_agrees(x));
  }
  EXPECT_GT(squares, kRandomCases / 3);
  EXPECT_LT(squares, 2 * kRandomCases / 3);
}

TYPED_TEST(Fp2Roots, SqrtOfASquareIsThatValueOrItsNegation) {
  using X = gmp_fp2<TypeParam>;
  auto g = test_rng();
  for (int i = 0; i < kRandomCases / 4; ++i) {
    auto y = X::random(g);
    if (i % 8 == 1) y.c1 = 0;
    if (i % 8 == 2) y.c0 = 0;
    auto r = (y * y).element().sqrt();
    ASSERT_TRUE(r.has_value()) << "y = " << y.str();
    auto root = X::value(*r);
    ASSERT_TRUE(root == y || root == X::of(-y.c0, -y.c1)) << "y = " << y.str() << ", root " << root.str();
  }
}

TYPED_TEST(Fp2Roots, SqrtOfPurelyRealAndPurelyImaginaryValues) {
  /* c and c u are squares in Fp2 for every c in Fp: both have norm c^2 */
  using X = gmp_fp2<TypeParam>;
  using G = typename X::G;
  auto g = test_rng();
  for (int i = 0; i < kRandomCases / 4; ++i) {
    mpz_class c = G::random(g);
    ASSERT_TRUE(sqrt_agrees(X{c, 0}));
    ASSERT_TRUE(sqrt_agrees(X{0, c}));
    ASSERT_TRUE(X({c, 0}).is_square());
  }
  for (const auto& c : G::edge_values()) {
    ASSERT_TRUE(sqrt_agrees(X{c, 0}));
    ASSERT_TRUE(sqrt_agrees(X{0, c}));
  }
}

TYPED_TEST(Fp2Roots, SqrtOfEveryPairOfEdgeValues) {
  using X = gmp_fp2<TypeParam>;
  auto e = X::G::edge_values();
  for (const auto& a : e)
    for (std::size_t j = 0; j < e.size(); j += 3) ASSERT_TRUE(sqrt_agrees(X{a, e[j]}));
}

TYPED_TEST(Fp2Roots, LexicographicallyLargestComparesC1ThenC0WithHalfTheModulus) {
  using X = gmp_fp2<TypeParam>;
  using G = typename X::G;
  auto g = test_rng();
  const mpz_class half = (G::p() - 1) / 2;
  auto want = [&](const X& x) { return x.c1 != 0 ? x.c1 > half : x.c0 > half; };
  for (int i = 0; i < kRandomCases; ++i) {
    auto x = X::random(g);
    if (i % 4 == 1) x.c1 = 0;
    ASSERT_EQ(x.element().lexicographically_largest(), want(x)) << "x = " << x.str();
  }
  auto e = G::edge_values();
  for (const auto& a : e)
    for (const auto& b : e) ASSERT_EQ(X({a, b}).element().lexicographically_largest(), want({a, b}));
}

}  // namespace
}  // namespace cuzk::test
