// The lazy-reduction layer under the tower (ff/fp_wide.hpp, ff/fp2_wide.hpp):
// wide products, wide sums modulo p R and the Montgomery reduction against
// GMP, on random values and on the extremes of the invariant (0, p - 1,
// p R - 1, unreduced operands up to 2p).
#include <gtest/gtest.h>

#include <vector>

#include "ff/fp2_wide.hpp"
#include "seed.hpp"
#include "tower_random.hpp"

namespace cuzk::test {
namespace {

using ff::fp2_t;
using ff::fp_t;
using ff::lazy::fp_wide_t;

constexpr int kRounds = 20000;

template <std::size_t N>
mpz_class to_mpz(const std::array<std::uint64_t, N>& l) {
  mpz_class v;
  mpz_import(v.get_mpz_t(), N, -1, sizeof(std::uint64_t), 0, 0, l.data());
  return v;
}
const mpz_class& mpz_R() {
  static const mpz_class r = mpz_class(1) << 384;
  return r;
}
fp_wide_t wide_from(const mpz_class& v) { return {to_limbs<12>(v)}; }

/* random wide values in [0, p R), from 12 random limbs reduced mod p R */
fp_wide_t random_wide(std::mt19937_64& g) {
  std::array<std::uint64_t, 12> l;
  for (auto& w : l) w = g();
  return wide_from(to_mpz(l) % (mpz_p() * mpz_R()));
}

/* edge Montgomery limbs: 0, 1, p - 1, p - 2, R mod p and a random value */
std::vector<fp_t> edge_values(std::mt19937_64& g) {
  auto from = [](const mpz_class& v) { return fp_t::from_montgomery(to_limbs<6>(v)); };
  return {from(0), from(1), from(mpz_p() - 1), from(mpz_p() - 2), fp_t::one(), random_fp(g)};
}

TEST(FpWide, ReduceIsMontgomeryReduction) {
  auto g = rng(101);
  const mpz_class rinv = [] {
    mpz_class r;
    mpz_invert(r.get_mpz_t(), mpz_R().get_mpz_t(), mpz_p().get_mpz_t());
    return r;
  }();
  auto check = [&](const mpz_class& t) {
    mpz_class want = t * rinv % mpz_p();
    EXPECT_EQ(to_mpz(ff::lazy::reduce(wide_from(t)).l), want) << t.get_str(16);
  };
  check(0);
  check(1);
  check(mpz_p() * mpz_R() - 1);  // the largest value the invariant allows
  check(mpz_p() * mpz_p() * 4 - 1);
  for (int i = 0; i < kRounds; ++i) check(to_mpz(random_wide(g).l));
}

TEST(FpWide, ProductsMatchMontgomeryProducts) {
  auto g = rng(102);
  auto edges = edge_values(g);
  for (const fp_t& a : edges)
    for (const fp_t& b : edges) {
      EXPECT_EQ(ff::lazy::mul(a, b), a * b);
      EXPECT_EQ(to_mpz(ff::lazy::mul_wide(a, b).l), to_mpz(a.l) * to_mpz(b.l));
    }
  for (int i = 0; i < kRounds; ++i) {
    fp_t a = random_fp(g), b = random_fp(g);
    EXPECT_EQ(ff::lazy::mul(a, b), a * b);
  }
}

TEST(FpWide, BranchFreeSumsMatchFieldSums) {
  auto g = rng(106);
  auto edges = edge_values(g);
  for (const fp_t& a : edges)
    for (const fp_t& b : edges) {
      EXPECT_EQ(ff::lazy::add(a, b), a + b);
      EXPECT_EQ(ff::lazy::sub(a, b), a - b);
    }
  for (int i = 0; i < kRounds; ++i) {
    fp_t a = random_fp(g), b = random_fp(g);
    EXPECT_EQ(ff::lazy::add(a, b), a + b);
    EXPECT_EQ(ff::lazy::sub(a, b), a - b);
    fp2_t x{a, b}, y{b, a};
    EXPECT_EQ(ff::lazy::mul_by_nonresidue(x), x.mul_by_nonresidue());
    EXPECT_EQ(ff::lazy::dbl(x), x + x);
    EXPECT_EQ(ff::lazy::sub(x, y), x - y);
  }
}

TEST(FpWide, UnreducedSumsStayBelowTwoP) {
  auto g = rng(103);
  auto edges = edge_values(g);
  for (const fp_t& a : edges)
    for (const fp_t& b : edges) {
      mpz_class s = to_mpz(ff::lazy::add_nr(a, b)), d = to_mpz(ff::lazy::sub_nr(a, b));
      EXPECT_EQ(s, to_mpz(a.l) + to_mpz(b.l));
      EXPECT_EQ(d, to_mpz(a.l) - to_mpz(b.l) + mpz_p());
      EXPECT_LT(s, 2 * mpz_p());
      EXPECT_LT(d, 2 * mpz_p());
      /* the largest unreduced product, (2p - 2)^2 < p R, still reduces correctly */
      EXPECT_EQ(ff::lazy::reduce(ff::lazy::mul_wide(ff::lazy::add_nr(a, b), ff::lazy::sub_nr(a, b))),
                (a + b) * (a - b));
    }
}

TEST(FpWide, WideSumsAreSumsModuloPR) {
  auto g = rng(104);
  const mpz_class pR = mpz_p() * mpz_R();
  std::vector<fp_wide_t> values{wide_from(0), wide_from(pR - 1), wide_from(pR - mpz_R()), wide_from(1)};
  for (int i = 0; i < 200; ++i) values.push_back(random_wide(g));
  for (const auto& x : values)
    for (std::size_t k = 0; k < 8; ++k) {
      const auto& y = values[(k * 31 + to_mpz(x.l).get_ui()) % values.size()];
      mpz_class s = to_mpz(ff::lazy::add(x, y).l), d = to_mpz(ff::lazy::sub(x, y).l);
      EXPECT_LT(s, pR);
      EXPECT_LT(d, pR);
      mpz_class ws = (to_mpz(x.l) + to_mpz(y.l)) % pR, wd = ((to_mpz(x.l) - to_mpz(y.l)) % pR + pR) % pR;
      EXPECT_EQ(s, ws);
      EXPECT_EQ(d, wd);
    }
}

TEST(Fp2Wide, ProductAndSquareMatchFp2) {
  auto g = rng(105);
  auto edges = edge_values(g);
  std::vector<fp2_t> values;
  for (const fp_t& a : edges)
    for (const fp_t& b : edges) values.push_back({a, b});
  for (const fp2_t& a : values) {
    EXPECT_EQ(ff::lazy::sqr(a), a * a);
    for (const fp2_t& b : values) EXPECT_EQ(ff::lazy::mul(a, b), a * b);
  }
  for (int i = 0; i < kRounds; ++i) {
    fp2_t a = random_fp2(g), b = random_fp2(g);
    EXPECT_EQ(ff::lazy::mul(a, b), a * b);
    EXPECT_EQ(ff::lazy::sqr(a), a.sqr());
    EXPECT_EQ(ff::lazy::mul(a, b.c0), a * b.c0);
  }
}

}  // namespace
}  // namespace cuzk::test
