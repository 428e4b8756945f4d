// Fp12 = Fp6[w]/(w^2 - v) of each curve: field laws, inverse, conjugation,
// the sparse line products (mul_by_014 for BLS12-381's M-twist lines,
// mul_by_034 for BN254's D-twist lines; both are plain algebra, so both run
// on both towers), the Frobenius map against x^(p^k) and its coefficients
// against xi^(j (p^k - 1) / 6).
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "ff/fp12.hpp"
#include "seed.hpp"
#include "tower_random.hpp"

namespace cuzk::test {
namespace {

template <class C>
class Fp12 : public ::testing::Test {};
TYPED_TEST_SUITE(Fp12, curves_under_test, curve_names);

constexpr int kRounds = 100;

/* The coefficients a_j of w^j (j = 0..5) and back (w^2 = v, see fp12.hpp) */
template <class C>
std::array<ff::fp2<C>, 6> w_basis(const ff::fp12<C>& a) {
  return {a.c0.c0, a.c1.c0, a.c0.c1, a.c1.c1, a.c0.c2, a.c1.c2};
}
template <class C>
ff::fp12<C> from_w_basis(const std::array<ff::fp2<C>, 6>& c) {
  return {{c[0], c[2], c[4]}, {c[1], c[3], c[5]}};
}

/* Independent reference: schoolbook in the w basis with plain Fp2 products,
   c_k = sum_{i+j=k} a_i b_j + xi sum_{i+j=k+6} a_i b_j  (w^6 = xi, xi from curve_facts) */
template <class C>
ff::fp12<C> schoolbook(const ff::fp12<C>& a, const ff::fp12<C>& b) {
  using fp2_t = ff::fp2<C>;
  const fp2_t xi = tower_of<C>::xi();
  auto x = w_basis(a), y = w_basis(b);
  std::array<fp2_t, 6> c{};
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) {
      fp2_t t = x[i] * y[j];
      if (i + j < 6)
        c[i + j] += t;
      else
        c[i + j - 6] += t * xi;
    }
  return from_w_basis<C>(c);
}

/* elements whose coefficients sit at the extremes: 0, 1, p - 1 (Montgomery limbs) */
template <class C>
std::vector<ff::fp12<C>> edge_elements(std::mt19937_64& g) {
  using T = tower_of<C>;
  using fp_t = typename T::fp_t;
  using fp2_t = typename T::fp2_t;
  fp_t top = T::top(), one = fp_t::from_montgomery(typename fp_t::limbs_t{1});
  fp2_t tt{top, top}, t0{top, fp_t::zero()}, o1{one, top};
  std::vector<ff::fp12<C>> out;
  out.push_back(from_w_basis<C>({tt, tt, tt, tt, tt, tt}));
  out.push_back(from_w_basis<C>({t0, tt, o1, t0, tt, o1}));
  out.push_back(from_w_basis<C>({fp2_t::zero(), tt, fp2_t::zero(), tt, fp2_t::zero(), tt}));
  out.push_back(ff::fp12<C>::one());
  out.push_back(T::random_fp12(g));
  return out;
}

TYPED_TEST(Fp12, ProductMatchesSchoolbookInTheWBasis) {
  using T = tower_of<TypeParam>;
  using fp12_t = typename T::fp12_t;
  auto g = curve_rng<TypeParam>(70);
  auto edges = edge_elements<TypeParam>(g);
  for (const auto& a : edges) {
    EXPECT_EQ(a.sqr(), schoolbook(a, a));
    for (const auto& b : edges) EXPECT_EQ(a * b, schoolbook(a, b));
  }
  for (int i = 0; i < kRounds; ++i) {
    fp12_t a = T::random_fp12(g), b = T::random_fp12(g);
    EXPECT_EQ(a * b, schoolbook(a, b));
    EXPECT_EQ(a.sqr(), schoolbook(a, a));
  }
}

TYPED_TEST(Fp12, WSquaredIsV) {
  using T = tower_of<TypeParam>;
  using fp2_t = typename T::fp2_t;
  using fp6_t = typename T::fp6_t;
  using fp12_t = typename T::fp12_t;
  fp12_t w{fp6_t::zero(), fp6_t::one()};
  fp12_t v{{fp2_t::zero(), fp2_t::one(), fp2_t::zero()}, fp6_t::zero()};
  EXPECT_EQ(w * w, v);
  /* w^6 = v^3 = xi */
  fp12_t w6 = w * w * w * w * w * w;
  EXPECT_EQ(w6, (fp12_t{{T::xi(), fp2_t::zero(), fp2_t::zero()}, fp6_t::zero()}));
}

TYPED_TEST(Fp12, RingLawsHold) {
  using T = tower_of<TypeParam>;
  using fp12_t = typename T::fp12_t;
  auto g = curve_rng<TypeParam>(71);
  for (int i = 0; i < kRounds; ++i) {
    fp12_t a = T::random_fp12(g), b = T::random_fp12(g), c = T::random_fp12(g);
    EXPECT_EQ(a * b, b * a);
    EXPECT_EQ((a * b) * c, a * (b * c));
    EXPECT_EQ(a * (b + c), a * b + a * c);
    EXPECT_EQ((a + b) - b, a);
    EXPECT_EQ(a + (-a), fp12_t::zero());
    EXPECT_EQ(a * fp12_t::one(), a);
    EXPECT_EQ(a.sqr(), a * a);
  }
}

TYPED_TEST(Fp12, InverseTimesSelfIsOne) {
  using T = tower_of<TypeParam>;
  using fp12_t = typename T::fp12_t;
  auto g = curve_rng<TypeParam>(72);
  for (int i = 0; i < kRounds; ++i) {
    fp12_t a = T::random_fp12(g);
    EXPECT_TRUE((a * a.inverse()).is_one());
  }
  EXPECT_TRUE(fp12_t::zero().inverse().is_zero());
}

/* l = l0 + l1 v + l4 v w: positions 0, 1 and 4 of the coefficient order
   (c0.c0, c0.c1, c1.c1), the M-twist line */
TYPED_TEST(Fp12, LineProductMatchesFullProduct) {
  using T = tower_of<TypeParam>;
  using fp2_t = typename T::fp2_t;
  using fp12_t = typename T::fp12_t;
  auto g = curve_rng<TypeParam>(73);
  for (int i = 0; i < kRounds; ++i) {
    fp12_t a = T::random_fp12(g);
    fp2_t l0 = T::random_fp2(g), l1 = T::random_fp2(g), l4 = T::random_fp2(g);
    fp12_t line{{l0, l1, fp2_t::zero()}, {fp2_t::zero(), l4, fp2_t::zero()}};
    EXPECT_EQ(a.mul_by_014(l0, l1, l4), a * line);
    if (i % 10 == 0) {
      EXPECT_EQ(a.mul_by_014(l0, l1, l4), schoolbook(a, line));
    }
  }
  const auto top = T::top();
  const fp2_t tt{top, top};
  for (const auto& a : edge_elements<TypeParam>(g)) {
    fp12_t line{{tt, tt, fp2_t::zero()}, {fp2_t::zero(), tt, fp2_t::zero()}};
    EXPECT_EQ(a.mul_by_014(tt, tt, tt), schoolbook(a, line));
  }
}

/* l = d0 + d3 w + d4 v w: positions 0, 3 and 4 of the coefficient order
   (c0.c0, c1.c0, c1.c1), the D-twist line */
TYPED_TEST(Fp12, DTwistLineProductMatchesFullProduct) {
  using T = tower_of<TypeParam>;
  using fp2_t = typename T::fp2_t;
  using fp12_t = typename T::fp12_t;
  auto g = curve_rng<TypeParam>(76);
  for (int i = 0; i < kRounds; ++i) {
    fp12_t a = T::random_fp12(g);
    fp2_t d0 = T::random_fp2(g), d3 = T::random_fp2(g), d4 = T::random_fp2(g);
    fp12_t line{{d0, fp2_t::zero(), fp2_t::zero()}, {d3, d4, fp2_t::zero()}};
    /* the same element in the w basis: d0 w^0 + d3 w^1 + d4 w^3 */
    ASSERT_EQ(line, from_w_basis<TypeParam>({d0, d3, fp2_t::zero(), d4, fp2_t::zero(), fp2_t::zero()}));
    EXPECT_EQ(a.mul_by_034(d0, d3, d4), a * line);
    if (i % 10 == 0) {
      EXPECT_EQ(a.mul_by_034(d0, d3, d4), schoolbook(a, line));
    }
  }
  const auto top = T::top();
  const fp2_t tt{top, top};
  for (const auto& a : edge_elements<TypeParam>(g)) {
    fp12_t line{{tt, fp2_t::zero(), fp2_t::zero()}, {tt, tt, fp2_t::zero()}};
    EXPECT_EQ(a.mul_by_034(tt, tt, tt), schoolbook(a, line));
  }
}

TYPED_TEST(Fp12, FrobeniusEqualsPowerOfP) {
  using T = tower_of<TypeParam>;
  using fp12_t = typename T::fp12_t;
  constexpr std::size_t N = T::N;
  auto g = curve_rng<TypeParam>(74);
  for (int i = 0; i < 3; ++i) {
    fp12_t a = T::random_fp12(g);
    for (unsigned k = 1; k <= 3; ++k)
      EXPECT_EQ(a.frobenius_map(k), a.pow(to_limbs<3 * N>(p_pow<TypeParam>(k)))) << "k = " << k;
    EXPECT_EQ(a.frobenius_map(12), a);
    fp12_t b = a;
    for (int j = 0; j < 7; ++j) b = b.frobenius_map(1);
    EXPECT_EQ(a.frobenius_map(7), b);
  }
}

TYPED_TEST(Fp12, ConjugateIsPowerP6) {
  using T = tower_of<TypeParam>;
  using fp12_t = typename T::fp12_t;
  auto g = curve_rng<TypeParam>(75);
  fp12_t a = T::random_fp12(g);
  EXPECT_EQ(a.conjugate(), a.pow(to_limbs<6 * T::N>(p_pow<TypeParam>(6))));
  EXPECT_EQ(a.conjugate(), a.frobenius_map(6));
}

TYPED_TEST(Fp12, FrobeniusCoefficientsArePowersOfXi) {
  using T = tower_of<TypeParam>;
  const auto xi = T::xi();
  for (unsigned k = 1; k <= 3; ++k)
    for (unsigned j = 1; j <= 5; ++j) {
      mpz_class e = j * (p_pow<TypeParam>(k) - 1) / 6;
      EXPECT_EQ(ff::tower::gamma<TypeParam>(k, j), xi.pow(to_limbs<3 * T::N>(e))) << "k = " << k << ", j = " << j;
    }
}

}  // namespace
}  // namespace cuzk::test
