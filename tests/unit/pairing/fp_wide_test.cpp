// The lazy-reduction layer under the tower (ff/fp_wide.hpp, the wide Fp2 of
// ff/fp2.hpp), for each curve's Fp (BLS12-381: 6 limbs, wide values of 12;
// BN254: 4 and 8): wide products, wide sums modulo p R and the Montgomery
// reduction against GMP, on random values and on the extremes of the
// invariant (0, p - 1, p R - 1, unreduced operands up to 2p).
#include <gtest/gtest.h>

#include <vector>

#include "ff/fp2.hpp"
#include "seed.hpp"
#include "tower_random.hpp"

namespace cuzk::test {
namespace {

template <class C>
class FpWide : public ::testing::Test {};
TYPED_TEST_SUITE(FpWide, curves_under_test, curve_names);
template <class C>
class Fp2Wide : public ::testing::Test {};
TYPED_TEST_SUITE(Fp2Wide, curves_under_test, curve_names);

constexpr int kRounds = 20000;

/* The wide layer of curve C: P its Fp parameters, N limbs, R = 2^(64 N). */
template <class C>
struct wide {
  using P = typename C::fp_params;
  using fp_t = ff::fp<C>;
  using fp2_t = ff::fp2<C>;
  using fp_wide_t = ff::lazy::fp_wide<P>;
  static constexpr std::size_t N = P::n_limbs;
  static_assert(std::tuple_size_v<decltype(fp_wide_t{}.l)> == 2 * N, "a wide value has 2N limbs");

  static const mpz_class& p() { return mpz_p<C>(); }
  static const mpz_class& R() {
    static const mpz_class v = mpz_class(1) << (64 * N);
    return v;
  }
  static fp_wide_t from(const mpz_class& v) { return {to_limbs<2 * N>(v)}; }
  /* random wide values in [0, p R), from 2N random limbs reduced mod p R */
  static fp_wide_t random(std::mt19937_64& g) {
    std::array<std::uint64_t, 2 * N> l;
    for (auto& w : l) w = g();
    return from(to_mpz(l) % (p() * R()));
  }
  /* edge Montgomery limbs: 0, 1, p - 1, p - 2, R mod p and a random value */
  static std::vector<fp_t> edge_values(std::mt19937_64& g) {
    auto f = [](const mpz_class& v) { return fp_t::from_montgomery(to_limbs<N>(v)); };
    return {f(0), f(1), f(p() - 1), f(p() - 2), fp_t::one(), fp_t::random(g)};
  }
};

TYPED_TEST(FpWide, ReduceIsMontgomeryReduction) {
  using W = wide<TypeParam>;
  auto g = curve_rng<TypeParam>(101);
  const mpz_class rinv = [] {
    mpz_class r;
    mpz_invert(r.get_mpz_t(), W::R().get_mpz_t(), W::p().get_mpz_t());
    return r;
  }();
  auto check = [&](const mpz_class& t) {
    mpz_class want = t * rinv % W::p();
    EXPECT_EQ(to_mpz(ff::lazy::reduce(W::from(t)).l), want) << t.get_str(16);
  };
  check(0);
  check(1);
  check(W::p() * W::R() - 1);  // the largest value the invariant allows
  check(W::p() * W::p() * 4 - 1);
  for (int i = 0; i < kRounds; ++i) check(to_mpz(W::random(g).l));
}

TYPED_TEST(FpWide, ProductsMatchMontgomeryProducts) {
  using W = wide<TypeParam>;
  using fp_t = typename W::fp_t;
  auto g = curve_rng<TypeParam>(102);
  auto edges = W::edge_values(g);
  for (const fp_t& a : edges)
    for (const fp_t& b : edges) {
      EXPECT_EQ(ff::lazy::mul(a, b), a * b);
      EXPECT_EQ(to_mpz(ff::lazy::mul_wide(a, b).l), to_mpz(a.l) * to_mpz(b.l));
    }
  for (int i = 0; i < kRounds; ++i) {
    fp_t a = fp_t::random(g), b = fp_t::random(g);
    EXPECT_EQ(ff::lazy::mul(a, b), a * b);
  }
}

TYPED_TEST(FpWide, BranchFreeSumsMatchFieldSums) {
  using W = wide<TypeParam>;
  using fp_t = typename W::fp_t;
  using fp2_t = typename W::fp2_t;
  auto g = curve_rng<TypeParam>(106);
  auto edges = W::edge_values(g);
  for (const fp_t& a : edges)
    for (const fp_t& b : edges) {
      EXPECT_EQ(ff::lazy::add(a, b), a + b);
      EXPECT_EQ(ff::lazy::sub(a, b), a - b);
    }
  const fp2_t xi = tower_of<TypeParam>::xi();
  for (int i = 0; i < kRounds; ++i) {
    fp_t a = fp_t::random(g), b = fp_t::random(g);
    EXPECT_EQ(ff::lazy::add(a, b), a + b);
    EXPECT_EQ(ff::lazy::sub(a, b), a - b);
    fp2_t x{a, b}, y{b, a};
    EXPECT_EQ(ff::lazy::mul_by_nonresidue(x), x.mul_by_nonresidue());
    EXPECT_EQ(ff::lazy::mul_by_nonresidue(x), x * xi);
    EXPECT_EQ(ff::lazy::dbl(x), x + x);
    EXPECT_EQ(ff::lazy::sub(x, y), x - y);
  }
}

TYPED_TEST(FpWide, UnreducedSumsStayBelowTwoP) {
  using W = wide<TypeParam>;
  using fp_t = typename W::fp_t;
  using P = typename W::P;
  auto g = curve_rng<TypeParam>(103);
  auto edges = W::edge_values(g);
  for (const fp_t& a : edges)
    for (const fp_t& b : edges) {
      mpz_class s = to_mpz(ff::lazy::add_nr(a, b)), d = to_mpz(ff::lazy::sub_nr(a, b));
      EXPECT_EQ(s, to_mpz(a.l) + to_mpz(b.l));
      EXPECT_EQ(d, to_mpz(a.l) - to_mpz(b.l) + W::p());
      EXPECT_LT(s, 2 * W::p());
      EXPECT_LT(d, 2 * W::p());
      /* the largest unreduced product, (2p - 2)^2 < p R, still reduces correctly */
      EXPECT_EQ(ff::lazy::reduce(ff::lazy::mul_wide<P>(ff::lazy::add_nr(a, b), ff::lazy::sub_nr(a, b))),
                (a + b) * (a - b));
    }
}

TYPED_TEST(FpWide, WideSumsAreSumsModuloPR) {
  using W = wide<TypeParam>;
  auto g = curve_rng<TypeParam>(104);
  const mpz_class pR = W::p() * W::R();
  std::vector<typename W::fp_wide_t> values{W::from(0), W::from(pR - 1), W::from(pR - W::R()), W::from(1)};
  for (int i = 0; i < 200; ++i) values.push_back(W::random(g));
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

TYPED_TEST(Fp2Wide, ProductAndSquareMatchFp2) {
  using W = wide<TypeParam>;
  using fp_t = typename W::fp_t;
  using fp2_t = typename W::fp2_t;
  auto g = curve_rng<TypeParam>(105);
  auto edges = W::edge_values(g);
  std::vector<fp2_t> values;
  for (const fp_t& a : edges)
    for (const fp_t& b : edges) values.push_back({a, b});
  for (const fp2_t& a : values) {
    EXPECT_EQ(ff::lazy::sqr(a), a * a);
    for (const fp2_t& b : values) EXPECT_EQ(ff::lazy::mul(a, b), a * b);
  }
  for (int i = 0; i < kRounds; ++i) {
    fp2_t a = tower_of<TypeParam>::random_fp2(g), b = tower_of<TypeParam>::random_fp2(g);
    EXPECT_EQ(ff::lazy::mul(a, b), a * b);
    EXPECT_EQ(ff::lazy::sqr(a), a.sqr());
    EXPECT_EQ(ff::lazy::mul(a, b.c0), a * b.c0);
  }
}

/* xi times a wide Fp2 value (k doublings and additions modulo p R for
   xi = k + u) reduces to xi times the product, also for the largest wide
   values */
TYPED_TEST(Fp2Wide, NonResidueOfAWideValueMatchesFp2) {
  using W = wide<TypeParam>;
  using fp_t = typename W::fp_t;
  using fp2_t = typename W::fp2_t;
  auto g = curve_rng<TypeParam>(107);
  const fp2_t xi = tower_of<TypeParam>::xi();
  auto edges = W::edge_values(g);
  for (const fp_t& a : edges)
    for (const fp_t& b : edges) {
      fp2_t x{a, b}, y{b, a};
      EXPECT_EQ(ff::lazy::reduce(ff::lazy::mul_by_nonresidue(ff::lazy::mul_wide(x, y))), x * y * xi);
    }
  const mpz_class pR = W::p() * W::R();
  for (const mpz_class& v : {mpz_class(0), mpz_class(1), mpz_class(pR - 1), mpz_class(pR - W::R())}) {
    ff::lazy::fp2_wide<TypeParam> w{W::from(v), W::from(pR - 1 - v)};
    fp2_t want = fp2_t{ff::lazy::reduce(w.c0), ff::lazy::reduce(w.c1)} * xi;
    EXPECT_EQ(ff::lazy::reduce(ff::lazy::mul_by_nonresidue(w)), want) << v.get_str(16);
  }
  for (int i = 0; i < kRounds / 4; ++i) {
    fp2_t x = tower_of<TypeParam>::random_fp2(g), y = tower_of<TypeParam>::random_fp2(g);
    EXPECT_EQ(ff::lazy::reduce(ff::lazy::mul_by_nonresidue(ff::lazy::mul_wide(x, y))), x * y * xi);
    ff::lazy::fp2_wide<TypeParam> w{W::random(g), W::random(g)};
    EXPECT_EQ(ff::lazy::reduce(ff::lazy::mul_by_nonresidue(w)), ff::lazy::reduce(w) * xi);
  }
}

}  // namespace
}  // namespace cuzk::test
