// Fp2 ring operations against the schoolbook formulas on GMP pairs.
#include "fp2_oracle.hpp"

namespace cuzk::test {
namespace {

using ff::fp2_t;
using ff::fp_t;
using G = gmp_field<fp_t>;

/* every (a, b) with a, b among the low-order edge values of Fp */
std::vector<gmp_fp2> edge_pairs() {
  auto e = G::edge_values();
  e.resize(24);
  std::vector<gmp_fp2> v;
  for (const auto& a : e)
    for (const auto& b : e) v.push_back({a, b});
  return v;
}

TEST(Fp2Arithmetic, AdditionAndSubtractionAgreeWithGmp) {
  auto g = test_rng();
  for (int i = 0; i < kRandomCases; ++i) {
    auto x = gmp_fp2::random(g), y = gmp_fp2::random(g);
    fp2_t a = x.element(), b = y.element();
    ASSERT_TRUE((x + y).agrees(a + b)) << "x = " << x.str() << ", y = " << y.str();
    ASSERT_TRUE((x - y).agrees(a - b)) << "x = " << x.str() << ", y = " << y.str();
    fp2_t c = a;
    ASSERT_TRUE((x + y).agrees(c += b)) << "x = " << x.str() << ", y = " << y.str();
    ASSERT_TRUE(x.agrees(c -= b)) << "x = " << x.str() << ", y = " << y.str();
  }
}

TEST(Fp2Arithmetic, MultiplicationAgreesWithGmpSchoolbook) {
  auto g = test_rng();
  for (int i = 0; i < kRandomCases; ++i) {
    auto x = gmp_fp2::random(g), y = gmp_fp2::random(g);
    fp2_t a = x.element();
    ASSERT_TRUE((x * y).agrees(a * y.element())) << "x = " << x.str() << ", y = " << y.str();
    ASSERT_TRUE((x * y).agrees(a *= y.element())) << "x = " << x.str() << ", y = " << y.str();
  }
}

TEST(Fp2Arithmetic, SquaringNegationAndDoublingAgreeWithGmp) {
  auto g = test_rng();
  for (int i = 0; i < kRandomCases; ++i) {
    auto x = gmp_fp2::random(g);
    fp2_t a = x.element();
    ASSERT_TRUE((x * x).agrees(a.sqr())) << "x = " << x.str();
    ASSERT_TRUE(gmp_fp2::of(-x.c0, -x.c1).agrees(-a)) << "x = " << x.str();
    ASSERT_TRUE((x + x).agrees(a.dbl())) << "x = " << x.str();
  }
}

TEST(Fp2Arithmetic, MultiplicationByAnFpScalarAgreesWithGmp) {
  auto g = test_rng();
  for (int i = 0; i < kRandomCases; ++i) {
    auto x = gmp_fp2::random(g);
    mpz_class s = G::random(g);
    ASSERT_TRUE(gmp_fp2::of(x.c0 * s, x.c1 * s).agrees(x.element() * G::element(s))) << "x = " << x.str();
  }
}

TEST(Fp2Arithmetic, MultiplicationByTheNonResidueOnePlusUAgreesWithGmp) {
  auto g = test_rng();
  const gmp_fp2 xi{1, 1};
  for (int i = 0; i < kRandomCases; ++i) {
    auto x = gmp_fp2::random(g);
    ASSERT_TRUE((x * xi).agrees(x.element().mul_by_nonresidue())) << "x = " << x.str();
  }
}

TEST(Fp2Arithmetic, ConjugateAndNormAgreeWithGmp) {
  auto g = test_rng();
  for (int i = 0; i < kRandomCases; ++i) {
    auto x = gmp_fp2::random(g);
    fp2_t a = x.element();
    ASSERT_TRUE(gmp_fp2::of(x.c0, -x.c1).agrees(a.conjugate())) << "x = " << x.str();
    ASSERT_TRUE(gmp_fp2::of(x.c0, -x.c1).agrees(a.frobenius())) << "x = " << x.str();
    ASSERT_TRUE(G::agrees(a.norm(), x.norm())) << "x = " << x.str();
  }
}

TEST(Fp2Arithmetic, FrobeniusIsThePthPower) {
  auto g = test_rng();
  for (int i = 0; i < 64; ++i) {
    auto x = gmp_fp2::random(g);
    ASSERT_TRUE(x.pow(G::p()).agrees(x.element().frobenius())) << "x = " << x.str();
  }
}

TEST(Fp2Arithmetic, InverseAgreesWithGmpAndZeroMapsToZero) {
  auto g = test_rng();
  EXPECT_TRUE(fp2_t::zero().inverse().is_zero());
  for (int i = 0; i < kRandomCases; ++i) {
    auto x = gmp_fp2::random(g);
    if (i % 8 == 1) x.c1 = 0;
    if (i % 8 == 2) x.c0 = 0;
    if (x.is_zero()) continue;
    ASSERT_TRUE(x.inverse().agrees(x.element().inverse())) << "x = " << x.str();
  }
}

TEST(Fp2Arithmetic, PowerAgreesWithGmp) {
  auto g = test_rng();
  for (int i = 0; i < kRandomCases; ++i) {
    auto x = gmp_fp2::random(g);
    std::uint64_t e = g() >> (g() % 64);
    mpz_class ez;
    mpz_import(ez.get_mpz_t(), 1, -1, sizeof e, 0, 0, &e);
    ASSERT_TRUE(x.pow(ez).agrees(x.element().pow(ff::limbs::big<1>{e}))) << "x = " << x.str() << ", e = " << e;
  }
  /* x^(p^2 - 1) = 1 for x != 0 */
  mpz_class order = G::p() * G::p() - 1;
  auto e = to_limbs<12>(order);
  for (int i = 0; i < 16; ++i) EXPECT_TRUE(gmp_fp2::random(g).element().pow(e).is_one());
}

TEST(Fp2Arithmetic, EqualityZeroAndOneAgreeWithGmp) {
  auto g = test_rng();
  EXPECT_TRUE(fp2_t::zero().is_zero() && !fp2_t::zero().is_one());
  EXPECT_TRUE(fp2_t::one().is_one() && !fp2_t::one().is_zero());
  EXPECT_TRUE(gmp_fp2({1, 0}).agrees(fp2_t::one()));
  EXPECT_FALSE((fp2_t{fp_t::one(), fp_t::one()}.is_one()));
  for (int i = 0; i < kRandomCases; ++i) {
    auto x = gmp_fp2::random(g), y = i % 2 ? x : gmp_fp2::random(g);
    if (i % 4 == 1) y.c1 = G::reduce(y.c1 + 1);
    if (i % 4 == 3) y.c0 = G::reduce(y.c0 + 1);
    ASSERT_EQ(x.element() == y.element(), x == y) << "x = " << x.str() << ", y = " << y.str();
  }
}

TEST(Fp2Arithmetic, EveryPairOfEdgeValuesAgreesWithGmp) {
  auto edges = edge_pairs();
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
