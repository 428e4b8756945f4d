// Fp6 = Fp2[v]/(v^3 - xi) of each curve (xi = 1 + u on BLS12-381, 9 + u on
// BN254): field laws, inverse, sparse products and the Frobenius map against
// x^(p^k) computed by plain exponentiation.
#include <gtest/gtest.h>

#include <vector>

#include "ff/fp6.hpp"
#include "seed.hpp"
#include "tower_random.hpp"

namespace cuzk::test {
namespace {

template <class C>
class Fp6 : public ::testing::Test {};
TYPED_TEST_SUITE(Fp6, curves_under_test, curve_names);

constexpr int kRounds = 200;

template <class C>
ff::fp6<C> pow6(const ff::fp6<C>& a, const mpz_class& e) {
  auto l = to_limbs<3 * tower_of<C>::N>(e);
  ff::fp6<C> r = ff::fp6<C>::one();
  for (std::size_t i = ff::limbs::bit_length(l); i-- > 0;) {
    r = r.sqr();
    if (ff::limbs::bit(l, i)) r *= a;
  }
  return r;
}

/* Independent reference: schoolbook with plain Fp2 products, v^3 = xi, the
   product by xi written out with xi from curve_facts */
template <class C>
ff::fp6<C> schoolbook(const ff::fp6<C>& a, const ff::fp6<C>& b) {
  using fp2_t = ff::fp2<C>;
  const fp2_t xi = tower_of<C>::xi();
  const fp2_t x[3] = {a.c0, a.c1, a.c2}, y[3] = {b.c0, b.c1, b.c2};
  fp2_t c[3] = {};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      fp2_t t = x[i] * y[j];
      if (i + j < 3)
        c[i + j] += t;
      else
        c[i + j - 3] += t * xi;
    }
  return {c[0], c[1], c[2]};
}

TYPED_TEST(Fp6, ProductsMatchSchoolbookIncludingExtremeCoefficients) {
  using T = tower_of<TypeParam>;
  using fp2_t = typename T::fp2_t;
  using fp6_t = typename T::fp6_t;
  auto g = curve_rng<TypeParam>(59);
  const auto top = T::top();
  fp2_t tt{top, top}, t0{top, T::fp_t::zero()};
  std::vector<fp6_t> values{{tt, tt, tt}, {t0, tt, t0}, {fp2_t::zero(), tt, fp2_t::zero()}, fp6_t::one()};
  for (int i = 0; i < kRounds; ++i) values.push_back(T::random_fp6(g));
  for (std::size_t i = 0; i < values.size(); ++i) {
    const fp6_t& a = values[i];
    const fp6_t& b = values[(i * 7 + 3) % values.size()];
    EXPECT_EQ(a * b, schoolbook(a, b));
    EXPECT_EQ(a.sqr(), schoolbook(a, a));
    EXPECT_EQ(a.mul_by_01(b.c0, b.c1), schoolbook(a, {b.c0, b.c1, fp2_t::zero()}));
    EXPECT_EQ(a.mul_by_1(b.c1), schoolbook(a, {fp2_t::zero(), b.c1, fp2_t::zero()}));
  }
}

TYPED_TEST(Fp6, VCubedIsTheNonResidue) {
  using T = tower_of<TypeParam>;
  using fp2_t = typename T::fp2_t;
  using fp6_t = typename T::fp6_t;
  fp6_t v{fp2_t::zero(), fp2_t::one(), fp2_t::zero()};
  EXPECT_EQ(v * v * v, (fp6_t{T::xi(), fp2_t::zero(), fp2_t::zero()}));
  auto g = curve_rng<TypeParam>(60);
  fp6_t a = T::random_fp6(g);
  EXPECT_EQ(a.mul_by_nonresidue(), a * v);
  fp2_t x = T::random_fp2(g);
  EXPECT_EQ(x.mul_by_nonresidue(), x * T::xi());
}

TYPED_TEST(Fp6, RingLawsHold) {
  using T = tower_of<TypeParam>;
  using fp6_t = typename T::fp6_t;
  auto g = curve_rng<TypeParam>(61);
  for (int i = 0; i < kRounds; ++i) {
    fp6_t a = T::random_fp6(g), b = T::random_fp6(g), c = T::random_fp6(g);
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

TYPED_TEST(Fp6, InverseTimesSelfIsOne) {
  using T = tower_of<TypeParam>;
  using fp6_t = typename T::fp6_t;
  auto g = curve_rng<TypeParam>(62);
  for (int i = 0; i < kRounds; ++i) {
    fp6_t a = T::random_fp6(g);
    EXPECT_TRUE((a * a.inverse()).is_one());
  }
  EXPECT_TRUE(fp6_t::zero().inverse().is_zero());
  EXPECT_TRUE(fp6_t::one().inverse().is_one());
}

TYPED_TEST(Fp6, SparseProductsMatchFullProducts) {
  using T = tower_of<TypeParam>;
  using fp2_t = typename T::fp2_t;
  using fp6_t = typename T::fp6_t;
  auto g = curve_rng<TypeParam>(63);
  for (int i = 0; i < kRounds; ++i) {
    fp6_t a = T::random_fp6(g);
    fp2_t b0 = T::random_fp2(g), b1 = T::random_fp2(g), s = T::random_fp2(g);
    EXPECT_EQ(a.mul_by_1(b1), (a * fp6_t{fp2_t::zero(), b1, fp2_t::zero()}));
    EXPECT_EQ(a.mul_by_01(b0, b1), (a * fp6_t{b0, b1, fp2_t::zero()}));
    EXPECT_EQ(a * s, (a * fp6_t{s, fp2_t::zero(), fp2_t::zero()}));
  }
}

TYPED_TEST(Fp6, FrobeniusEqualsPowerOfP) {
  using T = tower_of<TypeParam>;
  using fp6_t = typename T::fp6_t;
  auto g = curve_rng<TypeParam>(64);
  for (int i = 0; i < 5; ++i) {
    fp6_t a = T::random_fp6(g);
    for (unsigned k = 1; k <= 3; ++k) EXPECT_EQ(a.frobenius_map(k), pow6(a, p_pow<TypeParam>(k))) << "k = " << k;
    EXPECT_EQ(a.frobenius_map(6), a);
    fp6_t b = a;
    for (int j = 0; j < 5; ++j) b = b.frobenius_map(1);
    EXPECT_EQ(a.frobenius_map(5), b);
  }
}

}  // namespace
}  // namespace cuzk::test
