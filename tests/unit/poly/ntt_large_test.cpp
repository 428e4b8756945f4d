// Large transforms (past the in-cache block size, so the column stages run:
// 2^13 one, 2^15 three, 2^16 four, 2^17 five), checked by identities rather
// than a naive DFT, on each curve. The streaming passes that run above 2^21
// are checked against the column stages in coset_evaluations_test.cpp.
#include <gtest/gtest.h>

#include <vector>

#include "poly/ntt.hpp"
#include "poly/vector_ops.hpp"
#include "poly_test.hpp"

namespace cuzk::poly {
namespace {

/* NTT output at a few random indices i equals p(g ω^i) by Horner */
template <class C>
void expect_spot_evaluations(const basic_domain<C>& d, const std::vector<ff::fr<C>>& coeffs,
                             const std::vector<ff::fr<C>>& evals, const ff::fr<C>& g, std::mt19937_64& rng, int count) {
  std::vector<std::size_t> idx{0, 1, d.size() - 1};
  for (int i = 0; i < count; ++i) idx.push_back(rng() % d.size());
  for (std::size_t i : idx) EXPECT_EQ(evals[i], evaluate(coeffs, g * d.element(i))) << "index " << i;
}

template <class C>
class NttLarge : public ::testing::Test {};
TYPED_TEST_SUITE(NttLarge, test::curves_under_test, test::curve_names);

TYPED_TEST(NttLarge, EvaluatesAtRandomIndicesAcrossBlockBoundaries) {
  using F = ff::fr<TypeParam>;
  auto rng = curve_rng<TypeParam>(11);
  for (unsigned k : {13u, 15u, 16u}) {
    SCOPED_TRACE("n = 2^" + std::to_string(k));
    for (root_family f : both_families) {
      basic_domain<TypeParam> d(k, f);
      const auto a = random_vector<F>(rng, d.size());
      auto e = a;
      ntt(d, e);
      expect_spot_evaluations(d, a, e, F::one(), rng, 3);
    }
  }
}

TYPED_TEST(NttLarge, CosetEvaluatesAtRandomIndices) {
  using F = ff::fr<TypeParam>;
  using D = basic_domain<TypeParam>;
  auto rng = curve_rng<TypeParam>(12);
  D d(15, root_family::snarkjs);
  const auto a = random_vector<F>(rng, d.size());
  for (const F& g : {d.odd_coset_shift(), D::coset_generator(), F::random(rng)}) {
    auto e = a;
    coset_ntt(d, e, g);
    expect_spot_evaluations(d, a, e, g, rng, 3);
  }
}

TYPED_TEST(NttLarge, CosetNttIsNttOfPowerScaledCoefficients) {
  using F = ff::fr<TypeParam>;
  auto rng = curve_rng<TypeParam>(13);
  basic_domain<TypeParam> d(15);
  const F g = F::random(rng);
  auto a = random_vector<F>(rng, d.size());
  auto scaled = a;
  F gi = F::one();
  for (auto& x : scaled) x *= gi, gi *= g;  // a_i g^i, sequentially
  coset_ntt(d, a, g);
  ntt(d, scaled);
  EXPECT_EQ(a, scaled);
}

TYPED_TEST(NttLarge, InverseUndoesForwardAt2To16And2To17) {
  using F = ff::fr<TypeParam>;
  auto rng = curve_rng<TypeParam>(14);
  for (unsigned k : {16u, 17u})
    for (root_family f : both_families) {
      basic_domain<TypeParam> d(k, f);
      const auto a = random_vector<F>(rng, d.size());
      auto b = a;
      ntt(d, b);
      intt(d, b);
      EXPECT_TRUE(b == a) << "n = 2^" << k << ", " << family_name(f);
    }
}

TYPED_TEST(NttLarge, CosetInverseUndoesCosetForwardOnTheOddCoset) {
  using F = ff::fr<TypeParam>;
  auto rng = curve_rng<TypeParam>(15);
  basic_domain<TypeParam> d(16, root_family::snarkjs);
  const auto a = random_vector<F>(rng, d.size());
  auto b = a;
  coset_ntt(d, b, d.odd_coset_shift());
  coset_intt(d, b, d.odd_coset_shift());
  EXPECT_TRUE(b == a);
}

TYPED_TEST(NttLarge, PointwiseProductIsTheCyclicConvolution) {
  /* intt(ntt(a) ⊙ ntt(b))_k = Σ_j a_j b_((k - j) mod n): a b mod (x^n - 1) */
  using F = ff::fr<TypeParam>;
  auto rng = curve_rng<TypeParam>(16);
  basic_domain<TypeParam> d(15);
  const auto a = random_vector<F>(rng, d.size()), b = random_vector<F>(rng, d.size());
  auto ea = a, eb = b;
  ntt(d, ea);
  ntt(d, eb);
  mul_assign(ea, eb);
  intt(d, ea);
  const std::size_t n = d.size();
  for (std::size_t k : {std::size_t{0}, n - 1, std::size_t(rng() % n), std::size_t(rng() % n)}) {
    F ck;
    for (std::size_t j = 0; j < n; ++j) ck += a[j] * b[(k + n - j) % n];
    EXPECT_EQ(ea[k], ck) << "k = " << k;
  }
}

}  // namespace
}  // namespace cuzk::poly
