// Large transforms (past the in-cache block size, so the streaming radix-2
// and radix-4 passes run), checked by identities rather than a naive DFT.
#include <gtest/gtest.h>

#include <vector>

#include "poly/ntt.hpp"
#include "poly/vector_ops.hpp"
#include "random.hpp"
#include "root_family_name.hpp"
#include "seed.hpp"

namespace cuzk::poly {
namespace {

using test::random_fr;
using test::random_frs;

/* NTT output at a few random indices i equals p(g ω^i) by Horner */
void expect_spot_evaluations(const domain& d, const std::vector<fr_t>& coeffs, const std::vector<fr_t>& evals,
                             const fr_t& g, std::mt19937_64& rng, int count) {
  std::vector<std::size_t> idx{0, 1, d.size() - 1};
  for (int i = 0; i < count; ++i) idx.push_back(rng() % d.size());
  for (std::size_t i : idx) EXPECT_EQ(evals[i], evaluate(coeffs, g * d.element(i))) << "index " << i;
}

TEST(NttLarge, EvaluatesAtRandomIndicesAcrossBlockBoundaries) {
  auto rng = test::rng(11);
  /* 2^13 and 2^15: one radix-2 stage first; 2^14, 2^18: radix-4 only */
  for (unsigned k : {13u, 14u, 15u, 18u}) {
    SCOPED_TRACE("n = 2^" + std::to_string(k));
    for (root_family f : {root_family::bellman, root_family::snarkjs}) {
      domain d(k, f);
      const auto a = random_frs(rng, d.size());
      auto e = a;
      ntt(d, e);
      expect_spot_evaluations(d, a, e, fr_t::one(), rng, k == 18 ? 3 : 6);
    }
  }
}

TEST(NttLarge, CosetEvaluatesAtRandomIndices) {
  auto rng = test::rng(12);
  domain d(16, root_family::snarkjs);
  const auto a = random_frs(rng, d.size());
  for (const fr_t& g : {d.odd_coset_shift(), domain::coset_generator(), random_fr(rng)}) {
    auto e = a;
    coset_ntt(d, e, g);
    expect_spot_evaluations(d, a, e, g, rng, 3);
  }
}

TEST(NttLarge, CosetNttIsNttOfPowerScaledCoefficients) {
  auto rng = test::rng(13);
  domain d(17);
  const fr_t g = random_fr(rng);
  auto a = random_frs(rng, d.size());
  auto scaled = a;
  fr_t gi = fr_t::one();
  for (auto& x : scaled) x *= gi, gi *= g;  // a_i g^i, sequentially
  coset_ntt(d, a, g);
  ntt(d, scaled);
  EXPECT_EQ(a, scaled);
}

TEST(NttLarge, InverseUndoesForwardAt2To16And2To20) {
  auto rng = test::rng(14);
  for (unsigned k : {16u, 20u}) {
    domain d(k);
    const auto a = random_frs(rng, d.size());
    auto b = a;
    ntt(d, b);
    intt(d, b);
    EXPECT_TRUE(b == a) << "n = 2^" << k;
  }
}

TEST(NttLarge, CosetInverseUndoesCosetForwardOnTheOddCoset) {
  auto rng = test::rng(15);
  domain d(16, root_family::snarkjs);
  const auto a = random_frs(rng, d.size());
  auto b = a;
  coset_ntt(d, b, d.odd_coset_shift());
  coset_intt(d, b, d.odd_coset_shift());
  EXPECT_TRUE(b == a);
}

TEST(NttLarge, PointwiseProductIsTheCyclicConvolution) {
  /* intt(ntt(a) ⊙ ntt(b))_k = Σ_j a_j b_((k - j) mod n): a b mod (x^n - 1) */
  auto rng = test::rng(16);
  domain d(15);
  const auto a = random_frs(rng, d.size()), b = random_frs(rng, d.size());
  auto ea = a, eb = b;
  ntt(d, ea);
  ntt(d, eb);
  mul_assign(ea, eb);
  intt(d, ea);
  const std::size_t n = d.size();
  for (std::size_t k : {std::size_t{0}, n - 1, std::size_t(rng() % n), std::size_t(rng() % n)}) {
    fr_t ck;
    for (std::size_t j = 0; j < n; ++j) ck += a[j] * b[(k + n - j) % n];
    EXPECT_EQ(ea[k], ck) << "k = " << k;
  }
}

}  // namespace
}  // namespace cuzk::poly
