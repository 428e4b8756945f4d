// Fp12 = Fp6[w]/(w^2 - v): field laws, inverse, conjugation, the sparse
// line product, the Frobenius map against x^(p^k) and its coefficients
// against xi^(j (p^k - 1) / 6).
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "ff/fp12.hpp"
#include "seed.hpp"
#include "tower_random.hpp"

namespace cuzk::test {
namespace {

using ff::fp12_t;
using ff::fp2_t;
using ff::fp6_t;

constexpr int kRounds = 100;

/* The coefficients a_j of w^j (j = 0..5) and back (w^2 = v, see fp12.hpp) */
std::array<fp2_t, 6> w_basis(const fp12_t& a) { return {a.c0.c0, a.c1.c0, a.c0.c1, a.c1.c1, a.c0.c2, a.c1.c2}; }
fp12_t from_w_basis(const std::array<fp2_t, 6>& c) { return {{c[0], c[2], c[4]}, {c[1], c[3], c[5]}}; }

/* Independent reference: schoolbook in the w basis with plain Fp2 products,
   c_k = sum_{i+j=k} a_i b_j + xi sum_{i+j=k+6} a_i b_j  (w^6 = xi) */
fp12_t schoolbook(const fp12_t& a, const fp12_t& b) {
  auto x = w_basis(a), y = w_basis(b);
  std::array<fp2_t, 6> c{};
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) {
      fp2_t t = x[i] * y[j];
      if (i + j < 6)
        c[i + j] += t;
      else
        c[i + j - 6] += t.mul_by_nonresidue();
    }
  return from_w_basis(c);
}

/* elements whose coefficients sit at the extremes: 0, 1, p - 1 (Montgomery limbs) */
std::vector<fp12_t> edge_elements(std::mt19937_64& g) {
  ff::fp_t top = ff::fp_t::from_montgomery(to_limbs<6>(mpz_p() - 1)), one = ff::fp_t::from_montgomery({1});
  fp2_t tt{top, top}, t0{top, ff::fp_t::zero()}, o1{one, top};
  std::vector<fp12_t> out;
  out.push_back(from_w_basis({tt, tt, tt, tt, tt, tt}));
  out.push_back(from_w_basis({t0, tt, o1, t0, tt, o1}));
  out.push_back(from_w_basis({fp2_t::zero(), tt, fp2_t::zero(), tt, fp2_t::zero(), tt}));
  out.push_back(fp12_t::one());
  out.push_back(random_fp12(g));
  return out;
}

TEST(Fp12, ProductMatchesSchoolbookInTheWBasis) {
  auto g = rng(70);
  auto edges = edge_elements(g);
  for (const auto& a : edges) {
    EXPECT_EQ(a.sqr(), schoolbook(a, a));
    for (const auto& b : edges) EXPECT_EQ(a * b, schoolbook(a, b));
  }
  for (int i = 0; i < kRounds; ++i) {
    fp12_t a = random_fp12(g), b = random_fp12(g);
    EXPECT_EQ(a * b, schoolbook(a, b));
    EXPECT_EQ(a.sqr(), schoolbook(a, a));
  }
}

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
