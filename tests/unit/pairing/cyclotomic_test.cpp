// Granger-Scott squaring and exponentiation in the cyclotomic subgroup agree
// with the generic Fp12 squaring and power there.
#include <gtest/gtest.h>

#include "ff/fp12_cyclotomic.hpp"
#include "seed.hpp"
#include "tower_random.hpp"

namespace cuzk::test {
namespace {

using ff::fp12_t;

/* a^((p^6 - 1)(p^2 + 1)) lies in the cyclotomic subgroup G_phi6(p^2) */
fp12_t to_cyclotomic(const fp12_t& a) {
  fp12_t m = a.conjugate() * a.inverse();
  return m.frobenius_map(2) * m;
}

TEST(Cyclotomic, EasyPartLandsInTheSubgroup) {
  auto g = rng(81);
  fp12_t m = to_cyclotomic(random_fp12(g));
  mpz_class phi6 = p_pow(4) - p_pow(2) + 1;  // order of G_phi6(p^2)
  EXPECT_TRUE(m.pow(to_limbs<24>(phi6)).is_one());
  EXPECT_TRUE((m * m.conjugate()).is_one());
}

TEST(Cyclotomic, SquareEqualsSquareInTheSubgroup) {
  auto g = rng(82);
  for (int i = 0; i < 50; ++i) {
    fp12_t m = to_cyclotomic(random_fp12(g));
    EXPECT_EQ(ff::cyclotomic_sqr(m), m.sqr());
  }
}

TEST(Cyclotomic, ExpEqualsPowInTheSubgroup) {
  auto g = rng(83);
  for (int i = 0; i < 10; ++i) {
    fp12_t m = to_cyclotomic(random_fp12(g));
    std::uint64_t e = g();
    EXPECT_EQ(ff::cyclotomic_exp(m, e), m.pow(ff::limbs::big<1>{e}));
  }
  fp12_t m = to_cyclotomic(random_fp12(g));
  EXPECT_TRUE(ff::cyclotomic_exp(m, 0).is_one());
  EXPECT_EQ(ff::cyclotomic_exp(m, 0xd201000000010000ull), m.pow(ff::limbs::big<1>{0xd201000000010000ull}));
}

}  // namespace
}  // namespace cuzk::test
