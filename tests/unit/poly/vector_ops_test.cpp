// The element-wise operations and Horner evaluation on each curve's Fr.
#include <gtest/gtest.h>

#include <vector>

#include "poly/vector_ops.hpp"
#include "poly_test.hpp"

namespace cuzk::poly {
namespace {

/* sizes straddling the parallel grain (2^13) */
constexpr std::size_t sizes[] = {0, 1, 7, 8192, 8193, 20000};

template <class C>
class VectorOps : public ::testing::Test {};
TYPED_TEST_SUITE(VectorOps, test::curves_under_test, test::curve_names);

TYPED_TEST(VectorOps, ElementwiseOpsMatchScalarArithmetic) {
  using F = ff::fr<TypeParam>;
  auto rng = curve_rng<TypeParam>(21);
  for (std::size_t n : sizes) {
    const auto a = random_vector<F>(rng, n), b = random_vector<F>(rng, n), c = random_vector<F>(rng, n);
    const F s = F::random(rng);
    auto add = a, sub = a, mul = a, ms = a, sc = a;
    add_assign(add, b);
    sub_assign(sub, b);
    mul_assign(mul, b);
    mul_sub_assign(ms, b, c);
    scale(sc, s);
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_EQ(add[i], a[i] + b[i]);
      ASSERT_EQ(sub[i], a[i] - b[i]);
      ASSERT_EQ(mul[i], a[i] * b[i]);
      ASSERT_EQ(ms[i], a[i] * b[i] - c[i]);
      ASSERT_EQ(sc[i], a[i] * s);
    }
  }
}

TYPED_TEST(VectorOps, DistributePowersMultipliesByCTimesGToTheI) {
  using F = ff::fr<TypeParam>;
  auto rng = curve_rng<TypeParam>(22);
  for (std::size_t n : sizes) {
    const auto a = random_vector<F>(rng, n);
    const F c = F::random(rng), g = F::random(rng);
    auto d = a;
    distribute_powers(d, c, g);
    F w = c;
    for (std::size_t i = 0; i < n; ++i, w *= g) ASSERT_EQ(d[i], a[i] * w) << i;
  }
}

TYPED_TEST(VectorOps, EvaluateIsTheSumOfMonomials) {
  using F = ff::fr<TypeParam>;
  auto rng = curve_rng<TypeParam>(23);
  const auto a = random_vector<F>(rng, 50);
  const F x = F::random(rng);
  F sum, xi = F::one();
  for (const F& ai : a) sum += ai * xi, xi *= x;
  EXPECT_EQ(evaluate(a, x), sum);
  EXPECT_EQ(evaluate({}, x), F::zero());
}

TYPED_TEST(VectorOps, MismatchedLengthsAreRejected) {
  using F = ff::fr<TypeParam>;
  std::vector<F> a(4), b(5);
  EXPECT_THROW(add_assign(a, b), std::invalid_argument);
  EXPECT_THROW(sub_assign(a, b), std::invalid_argument);
  EXPECT_THROW(mul_assign(a, b), std::invalid_argument);
  EXPECT_THROW(mul_sub_assign(a, a, b), std::invalid_argument);
  EXPECT_THROW(mul_sub_assign(a, b, a), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::poly
