#include <gtest/gtest.h>

#include <vector>

#include "poly/vector_ops.hpp"
#include "random.hpp"
#include "seed.hpp"

namespace cuzk::poly {
namespace {

using test::random_fr;
using test::random_frs;

/* sizes straddling the parallel grain (2^13) */
constexpr std::size_t sizes[] = {0, 1, 7, 8192, 8193, 20000};

TEST(VectorOps, ElementwiseOpsMatchScalarArithmetic) {
  auto rng = test::rng(21);
  for (std::size_t n : sizes) {
    const auto a = random_frs(rng, n), b = random_frs(rng, n), c = random_frs(rng, n);
    const fr_t s = random_fr(rng);
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

TEST(VectorOps, DistributePowersMultipliesByCTimesGToTheI) {
  auto rng = test::rng(22);
  for (std::size_t n : sizes) {
    const auto a = random_frs(rng, n);
    const fr_t c = random_fr(rng), g = random_fr(rng);
    auto d = a;
    distribute_powers(d, c, g);
    fr_t w = c;
    for (std::size_t i = 0; i < n; ++i, w *= g) ASSERT_EQ(d[i], a[i] * w) << i;
  }
}

TEST(VectorOps, EvaluateIsTheSumOfMonomials) {
  auto rng = test::rng(23);
  const auto a = random_frs(rng, 50);
  const fr_t x = random_fr(rng);
  fr_t sum, xi = fr_t::one();
  for (const fr_t& ai : a) sum += ai * xi, xi *= x;
  EXPECT_EQ(evaluate(a, x), sum);
  EXPECT_EQ(evaluate({}, x), fr_t::zero());
}

TEST(VectorOps, MismatchedLengthsAreRejected) {
  std::vector<fr_t> a(4), b(5);
  EXPECT_THROW(mul_assign(a, b), std::invalid_argument);
  EXPECT_THROW(mul_sub_assign(a, a, b), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::poly
