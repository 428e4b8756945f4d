// Fp12 = Fp6[w]/(w^2 - v): field laws, inverse, conjugation, the sparse
// line product, the Frobenius map against x^(p^k) and its coefficients
// against xi^(j (p^k - 1) / 6).
#include <gtest/gtest.h>

#include "ff/fp12.hpp"
#include "seed.hpp"
#include "tower_random.hpp"

namespace cuzk::test {
namespace {

using ff::fp12_t;
using ff::fp2_t;
using ff::fp6_t;

constexpr int kRounds = 100;

TEST(Fp12, WSquaredIsV) {
  fp12_t w{fp6_t::zero(), fp6_t::one()};
  fp12_t v{{fp2_t::zero(), fp2_t::one(), fp2_t::zero()}, fp6_t::zero()};
  EXPECT_EQ(w * w, v);
}

TEST(Fp12, RingLawsHold) {
  auto g = rng(71);
  for (int i = 0; i < kRounds; ++i) {
    fp12_t a = random_fp12(g), b = random_fp12(g), c = random_fp12(g);
    EXPECT_EQ(a * b, b * a);
    EXPECT_EQ((a * b) * c, a * (b * c));
    EXPECT_EQ(a * (b + c), a * b + a * c);
    EXPECT_EQ((a + b) - b, a);
    EXPECT_EQ(a + (-a), fp12_t::zero());
    EXPECT_EQ(a * fp12_t::one(), a);
    EXPECT_EQ(a.sqr(), a * a);
  }
}

TEST(Fp12, InverseTimesSelfIsOne) {
  auto g = rng(72);
  for (int i = 0; i < kRounds; ++i) {
    fp12_t a = random_fp12(g);
    EXPECT_TRUE((a * a.inverse()).is_one());
  }
  EXPECT_TRUE(fp12_t::zero().inverse().is_zero());
}

TEST(Fp12, LineProductMatchesFullProduct) {
  auto g = rng(73);
  for (int i = 0; i < kRounds; ++i) {
    fp12_t a = random_fp12(g);
    fp2_t l0 = random_fp2(g), l1 = random_fp2(g), l4 = random_fp2(g);
    fp12_t line{{l0, l1, fp2_t::zero()}, {fp2_t::zero(), l4, fp2_t::zero()}};
    EXPECT_EQ(a.mul_by_014(l0, l1, l4), a * line);
  }
}

TEST(Fp12, FrobeniusEqualsPowerOfP) {
  auto g = rng(74);
  for (int i = 0; i < 3; ++i) {
    fp12_t a = random_fp12(g);
    for (unsigned k = 1; k <= 3; ++k) EXPECT_EQ(a.frobenius_map(k), a.pow(to_limbs<18>(p_pow(k)))) << "k = " << k;
    EXPECT_EQ(a.frobenius_map(12), a);
    fp12_t b = a;
    for (int j = 0; j < 7; ++j) b = b.frobenius_map(1);
    EXPECT_EQ(a.frobenius_map(7), b);
  }
}

TEST(Fp12, ConjugateIsPowerP6) {
  auto g = rng(75);
  fp12_t a = random_fp12(g);
  EXPECT_EQ(a.conjugate(), a.pow(to_limbs<36>(p_pow(6))));
  EXPECT_EQ(a.conjugate(), a.frobenius_map(6));
}

TEST(Fp12, FrobeniusCoefficientsArePowersOfXi) {
  fp2_t xi{ff::fp_t::one(), ff::fp_t::one()};
  for (unsigned k = 1; k <= 3; ++k)
    for (unsigned j = 1; j <= 5; ++j) {
      mpz_class e = j * (p_pow(k) - 1) / 6;
      EXPECT_EQ(ff::tower::gamma(k, j), xi.pow(to_limbs<18>(e))) << "k = " << k << ", j = " << j;
    }
}

}  // namespace
}  // namespace cuzk::test
