// Fp6 = Fp2[v]/(v^3 - (1 + u)): field laws, inverse, sparse products and the
// Frobenius map against x^(p^k) computed by plain exponentiation.
#include <gtest/gtest.h>

#include <vector>

#include "ff/fp6.hpp"
#include "seed.hpp"
#include "tower_random.hpp"

namespace cuzk::test {
namespace {

using ff::fp2_t;
using ff::fp6_t;

constexpr int kRounds = 200;

fp6_t pow6(const fp6_t& a, const mpz_class& e) {
  auto l = to_limbs<18>(e);
  fp6_t r = fp6_t::one();
  for (std::size_t i = ff::limbs::bit_length(l); i-- > 0;) {
    r = r.sqr();
    if (ff::limbs::bit(l, i)) r *= a;
  }
  return r;
}

/* Independent reference: schoolbook with plain Fp2 products, v^3 = xi */
fp6_t schoolbook(const fp6_t& a, const fp6_t& b) {
  const fp2_t x[3] = {a.c0, a.c1, a.c2}, y[3] = {b.c0, b.c1, b.c2};
  fp2_t c[3] = {};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      fp2_t t = x[i] * y[j];
      if (i + j < 3)
        c[i + j] += t;
      else
        c[i + j - 3] += t.mul_by_nonresidue();
    }
  return {c[0], c[1], c[2]};
}

TEST(Fp6, ProductsMatchSchoolbookIncludingExtremeCoefficients) {
  auto g = rng(59);
  ff::fp_t top = ff::fp_t::from_montgomery(to_limbs<6>(mpz_p() - 1));
  fp2_t tt{top, top}, t0{top, ff::fp_t::zero()};
  std::vector<fp6_t> values{{tt, tt, tt}, {t0, tt, t0}, {fp2_t::zero(), tt, fp2_t::zero()}, fp6_t::one()};
  for (int i = 0; i < kRounds; ++i) values.push_back(random_fp6(g));
  for (std::size_t i = 0; i < values.size(); ++i) {
    const fp6_t& a = values[i];
    const fp6_t& b = values[(i * 7 + 3) % values.size()];
    EXPECT_EQ(a * b, schoolbook(a, b));
    EXPECT_EQ(a.sqr(), schoolbook(a, a));
    EXPECT_EQ(a.mul_by_01(b.c0, b.c1), schoolbook(a, {b.c0, b.c1, fp2_t::zero()}));
    EXPECT_EQ(a.mul_by_1(b.c1), schoolbook(a, {fp2_t::zero(), b.c1, fp2_t::zero()}));
  }
}

TEST(Fp6, VCubedIsTheNonResidue) {
  fp6_t v{fp2_t::zero(), fp2_t::one(), fp2_t::zero()};
  fp2_t xi{ff::fp_t::one(), ff::fp_t::one()};
  EXPECT_EQ(v * v * v, (fp6_t{xi, fp2_t::zero(), fp2_t::zero()}));
  auto g = rng(60);
  fp6_t a = random_fp6(g);
  EXPECT_EQ(a.mul_by_nonresidue(), a * v);
}

TEST(Fp6, RingLawsHold) {
  auto g = rng(61);
  for (int i = 0; i < kRounds; ++i) {
    fp6_t a = random_fp6(g), b = random_fp6(g), c = random_fp6(g);
    EXPECT_EQ(a * b, b * a);
    EXPECT_EQ((a * b) * c, a * (b * c));
    EXPECT_EQ(a * (b + c), a * b + a * c);
    EXPECT_EQ((a + b) - b, a);
    EXPECT_EQ(a + (-a), fp6_t::zero());
    EXPECT_EQ(a.dbl(), a + a);
    EXPECT_EQ(a * fp6_t::one(), a);
    EXPECT_EQ(a.sqr(), a * a);
  }
}

TEST(Fp6, InverseTimesSelfIsOne) {
  auto g = rng(62);
  for (int i = 0; i < kRounds; ++i) {
    fp6_t a = random_fp6(g);
    EXPECT_TRUE((a * a.inverse()).is_one());
  }
  EXPECT_TRUE(fp6_t::zero().inverse().is_zero());
  EXPECT_TRUE(fp6_t::one().inverse().is_one());
}

TEST(Fp6, SparseProductsMatchFullProducts) {
  auto g = rng(63);
  for (int i = 0; i < kRounds; ++i) {
    fp6_t a = random_fp6(g);
    fp2_t b0 = random_fp2(g), b1 = random_fp2(g), s = random_fp2(g);
    EXPECT_EQ(a.mul_by_1(b1), (a * fp6_t{fp2_t::zero(), b1, fp2_t::zero()}));
    EXPECT_EQ(a.mul_by_01(b0, b1), (a * fp6_t{b0, b1, fp2_t::zero()}));
    EXPECT_EQ(a * s, (a * fp6_t{s, fp2_t::zero(), fp2_t::zero()}));
  }
}

TEST(Fp6, FrobeniusEqualsPowerOfP) {
  auto g = rng(64);
  for (int i = 0; i < 5; ++i) {
    fp6_t a = random_fp6(g);
    for (unsigned k = 1; k <= 3; ++k) EXPECT_EQ(a.frobenius_map(k), pow6(a, p_pow(k))) << "k = " << k;
    EXPECT_EQ(a.frobenius_map(6), a);
    fp6_t b = a;
    for (int j = 0; j < 5; ++j) b = b.frobenius_map(1);
    EXPECT_EQ(a.frobenius_map(5), b);
  }
}

}  // namespace
}  // namespace cuzk::test
