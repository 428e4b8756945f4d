// Granger-Scott squaring and exponentiation in the cyclotomic subgroup agree
// with the generic Fp12 squaring and power there, on each curve's tower.
#include <gtest/gtest.h>

#include "ff/fp12_cyclotomic.hpp"
#include "seed.hpp"
#include "tower_random.hpp"

namespace cuzk::test {
namespace {

template <class C>
class Cyclotomic : public ::testing::Test {};
TYPED_TEST_SUITE(Cyclotomic, curves_under_test, curve_names);

/* a^((p^6 - 1)(p^2 + 1)) lies in the cyclotomic subgroup G_phi6(p^2) */
template <class C>
ff::fp12<C> to_cyclotomic(const ff::fp12<C>& a) {
  ff::fp12<C> m = a.conjugate() * a.inverse();
  return m.frobenius_map(2) * m;
}

/* |x|, the curve parameter's absolute value (from curve_facts) */
template <class C>
std::uint64_t x_abs() {
  mpz_class x = abs(curve_facts<C>::x());
  return to_limbs<1>(x)[0];
}

TYPED_TEST(Cyclotomic, EasyPartLandsInTheSubgroup) {
  using T = tower_of<TypeParam>;
  auto g = curve_rng<TypeParam>(81);
  auto m = to_cyclotomic(T::random_fp12(g));
  mpz_class phi6 = p_pow<TypeParam>(4) - p_pow<TypeParam>(2) + 1;  // order of G_phi6(p^2)
  EXPECT_TRUE(m.pow(to_limbs<4 * T::N>(phi6)).is_one());
  EXPECT_TRUE((m * m.conjugate()).is_one());
}

TYPED_TEST(Cyclotomic, SquareEqualsSquareInTheSubgroup) {
  using T = tower_of<TypeParam>;
  auto g = curve_rng<TypeParam>(82);
  for (int i = 0; i < 50; ++i) {
    auto m = to_cyclotomic(T::random_fp12(g));
    EXPECT_EQ(ff::cyclotomic_sqr(m), m.sqr());
  }
}

TYPED_TEST(Cyclotomic, ExpEqualsPowInTheSubgroup) {
  using T = tower_of<TypeParam>;
  auto g = curve_rng<TypeParam>(83);
  for (int i = 0; i < 10; ++i) {
    auto m = to_cyclotomic(T::random_fp12(g));
    std::uint64_t e = g();
    EXPECT_EQ(ff::cyclotomic_exp(m, e), m.pow(ff::limbs::big<1>{e}));
  }
  auto m = to_cyclotomic(T::random_fp12(g));
  EXPECT_TRUE(ff::cyclotomic_exp(m, 0).is_one());
  EXPECT_EQ(ff::cyclotomic_exp(m, 1), m);
  /* the exponent of the final exponentiation's hard part: |x| (BLS12-381
     0xd201000000010000, BN254 4965661367192848881) */
  const std::uint64_t x = x_abs<TypeParam>();
  EXPECT_EQ(ff::cyclotomic_exp(m, x), m.pow(ff::limbs::big<1>{x}));
  EXPECT_EQ(TypeParam::x_abs, x);
}

}  // namespace
}  // namespace cuzk::test
