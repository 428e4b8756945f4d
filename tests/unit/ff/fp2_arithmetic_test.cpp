// Fp2 ring operations against the schoolbook formulas on GMP pairs, for the
// Fp2 of each curve (BLS12-381, BN254).
#include "fp2_oracle.hpp"

namespace cuzk::test {
namespace {

template <class C>
class Fp2Arithmetic : public ::testing::Test {};
TYPED_TEST_SUITE(Fp2Arithmetic, curves_under_test, curve_names);

/* every (a, b) with a, b among the low-order edge values of Fp */
template <class C>
std::vector<gmp_fp2<C>> edge_pairs() {
  auto e = gmp_fp2<C>::G::edge_values();
  e.resize(24);
  std::vector<gmp_fp2<C>> v;
  for (const auto& a : e)
    for (const auto& b : e) v.push_back({a, b});
  return v;
}

TYPED_TEST(Fp2Arithmetic, AdditionAndSubtractionAgreeWithGmp) {
  using X = gmp_fp2<TypeParam>;
  using fp2_t = ff::fp2<TypeParam>;
  auto g = test_rng();
  for (int i = 0; i < kRandomCases; ++i) {
    auto x = X::random(g), y = X::random(g);
    fp2_t a = x.element(), b = y.element();
    ASSERT_TRUE((x + y).agrees(a + b)) << "x = " << x.str() << ", y = " << y.str();
    ASSERT_TRUE((x - y).agrees(a - b)) << "x = " << x.str() << ", y = " << y.str();
    fp2_t c = a;
    ASSERT_TRUE((x + y).agrees(c += b)) << "x = " << x.str() << ", y = " << y.str();
    ASSERT_TRUE(x.agrees(c -= b)) << "x = " << x.str() << ", y = " << y.str();
  }
}

TYPED_TEST(Fp2Arithmetic, MultiplicationAgreesWithGmpSchoolbook) {
  using X = gmp_fp2<TypeParam>;
  using fp2_t = ff::fp2<TypeParam>;
  auto g = test_rng();
  for (int i = 0; i < kRandomCases; ++i) {
    auto x = X::random(g), y = X::random(g);
    fp2_t a = x.element();
    ASSERT_TRUE((x * y).agrees(a * y.element())) << "x = " << x.str() << ", y = " << y.str();
    ASSERT_TRUE((x * y).agrees(a *= y.element())) << "x = " << x.str() << ", y = " << y.str();
  }
}

TYPED_TEST(Fp2Arithmetic, SquaringNegationAndDoublingAgreeWithGmp) {
  using X = gmp_fp2<TypeParam>;
  using fp2_t = ff::fp2<TypeParam>;
  auto g = test_rng();
  for (int i = 0; i < kRandomCases; ++i) {
    auto x = X::random(g);
    fp2_t a = x.element();
    ASSERT_TRUE((x * x).agrees(a.sqr())) << "x = " << x.str();
    ASSERT_TRUE(X::of(-x.c0, -x.c1).agrees(-a)) << "x = " << x.str();
    ASSERT_TRUE((x + x).agrees(a.dbl())) << "x = " << x.str();
  }
}

TYPED_TEST(Fp2Arithmetic, MultiplicationByAnFpScalarAgreesWithGmp) {
  using X = gmp_fp2<TypeParam>;
  using G = typename X::G;
  auto g = test_rng();
  for (int i = 0; i < kRandomCases; ++i) {
    auto x = X::random(g);
    mpz_class s = G::random(g);
    ASSERT_TRUE(X::of(x.c0 * s, x.c1 * s).agrees(x.element() * G::element(s))) << "x = " << x.str();
  }
}

/* xi = 1 + u on BLS12-381, 9 + u on BN254 */
TYPED_TEST(Fp2Arithmetic, MultiplicationByTheNonResidueXiAgreesWithGmp) {
  using X = gmp_fp2<TypeParam>;
  auto g = test_rng();
  const X xi = X::xi();
  for (int i = 0; i < kRandomCases; ++i) {
    auto x = X::random(g);
    ASSERT_TRUE((x * xi).agrees(x.element().mul_by_nonresidue())) << "x = " << x.str();
  }
  for (const auto& x : edge_pairs<TypeParam>())
    ASSERT_TRUE((x * xi).agrees(x.element().mul_by_nonresidue())) << "x = " << x.str();
}

/* Fp6 = Fp2[v]/(v^3 - xi) and Fp12 = Fp6[w]/(w^2 - v) are fields only if xi
   is neither a square nor a cube in Fp2: xi^((p^2 - 1)/2) != 1 and
   xi^((p^2 - 1)/3) != 1 (p^2 = 1 mod 6 for both curves). */
TYPED_TEST(Fp2Arithmetic, XiIsNeitherASquareNorACube) {
  using X = gmp_fp2<TypeParam>;
  using G = typename X::G;
  const mpz_class order = G::p() * G::p() - 1;
  ASSERT_EQ(mpz_class(order % 6), 0);
  const X one{1, 0};
  EXPECT_FALSE(X::xi().pow(order / 2) == one);
  EXPECT_FALSE(X::xi().pow(order / 3) == one);
  EXPECT_FALSE(X::xi().is_square());
  EXPECT_FALSE(X::xi().element().sqrt().has_value());
}

TYPED_TEST(Fp2Arithmetic, ConjugateAndNormAgreeWithGmp) {
  using X = gmp_fp2<TypeParam>;
  using G = typename X::G;
  using fp2_t = ff::fp2<TypeParam>;
  auto g = test_rng();
  for (int i = 0; i < kRandomCases; ++i) {
    auto x = X::random(g);
    fp2_t a = x.element();
    ASSERT_TRUE(X::of(x.c0, -x.c1).agrees(a.conjugate())) << "x = " << x.str();
    ASSERT_TRUE(X::of(x.c0, -x.c1).agrees(a.frobenius())) << "x = " << x.str();
    ASSERT_TRUE(G::agrees(a.norm(), x.norm())) << "x = " << x.str();
  }
}

TYPED_TEST(Fp2Arithmetic, FrobeniusIsThePthPower) {
  using X = gmp_fp2<TypeParam>;
  auto g = test_rng();
  for (int i = 0; i < 64; ++i) {
    auto x = X::random(g);
    ASSERT_TRUE(x.pow(X::G::p()).agrees(x.element().frobenius())) << "x = " << x.str();
  }
}

TYPED_TEST(Fp2Arithmetic, InverseAgreesWithGmpAndZeroMapsToZero) {
  using X = gmp_fp2<TypeParam>;
  auto g = test_rng();
  EXPECT_TRUE(ff::fp2<TypeParam>::zero().inverse().is_zero());
  for (int i = 0; i < kRandomCases; ++i) {
    auto x = X::random(g);
    if (i % 8 == 1) x.c1 = 0;
    if (i % 8 == 2) x.c0 = 0;
    if (x.is_zero()) continue;
    ASSERT_TRUE(x.inverse().agrees(x.element().inverse())) << "x = " << x.str();
  }
}

TYPED_TEST(Fp2Arithmetic, PowerAgreesWithGmp) {
  using X = gmp_fp2<TypeParam>;
  using G = typename X::G;
  auto g = test_rng();
  for (int i = 0; i < kRandomCases; ++i) {
    auto x = X::random(g);
    std::uint64_t e = g() >> (g() % 64);
    mpz_class ez;
    mpz_import(ez.get_mpz_t(), 1, -1, sizeof e, 0, 0, &e);
    ASSERT_TRUE(x.pow(ez).agrees(x.element().pow(ff::limbs::big<1>{e}))) << "x = " << x.str() << ", e = " << e;
  }
  /* x^(p^2 - 1) = 1 for x != 0 */
  mpz_class order = G::p() * G::p() - 1;
  auto e = to_limbs<2 * G::N>(order);
  for (int i = 0; i < 16; ++i) EXPECT_TRUE(X::random(g).element().pow(e).is_one());
}

TYPED_TEST(Fp2Arithmetic, EqualityZeroAndOneAgreeWithGmp) {
  using X = gmp_fp2<TypeParam>;
  using G = typename X::G;
  using fp_t = ff::fp<TypeParam>;
  using fp2_t = ff::fp2<TypeParam>;
  auto g = test_rng();
  EXPECT_TRUE(fp2_t::zero().is_zero() && !fp2_t::zero().is_one());
  EXPECT_TRUE(fp2_t::one().is_one() && !fp2_t::one().is_zero());
  EXPECT_TRUE(X({1, 0}).agrees(fp2_t::one()));
  EXPECT_FALSE((fp2_t{fp_t::one(), fp_t::one()}.is_one()));
  for (int i = 0; i < kRandomCases; ++i) {
    auto x = X::random(g), y = i % 2 ? x : X::random(g);
    if (i % 4 == 1) y.c1 = G::reduce(y.c1 + 1);
    if (i % 4 == 3) y.c0 = G::reduce(y.c0 + 1);
    ASSERT_EQ(x.element() == y.element(), x == y) << "x = " << x.str() << ", y = " << y.str();
  }
}

TYPED_TEST(Fp2Arithmetic, EveryPairOfEdgeValuesAgreesWithGmp) {
  using fp2_t = ff::fp2<TypeParam>;
  auto edges = edge_pairs<TypeParam>();
  for (const auto& x : edges) {
    fp2_t a = x.element();
    ASSERT_TRUE((x * x).agrees(a.sqr())) << "x = " << x.str();
    if (!x.is_zero()) {
      ASSERT_TRUE(x.inverse().agrees(a.inverse())) << "x = " << x.str();
    }
    for (std::size_t j = 0; j < edges.size(); j += 7) {
      const auto& y = edges[j];
      fp2_t b = y.element();
      ASSERT_TRUE((x + y).agrees(a + b)) << "x = " << x.str() << ", y = " << y.str();
      ASSERT_TRUE((x - y).agrees(a - b)) << "x = " << x.str() << ", y = " << y.str();
      ASSERT_TRUE((x * y).agrees(a * b)) << "x = " << x.str() << ", y = " << y.str();
    }
  }
}

}  // namespace
}  // namespace cuzk::test
