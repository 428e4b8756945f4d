// Every transform against the O(n^2) DFT, n = 2 ... 256, both root families.
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

/* A_i = Σ_j a_j (g ω^i)^j = p(g ω^i) */
std::vector<fr_t> naive_dft(const domain& d, const std::vector<fr_t>& a, const fr_t& g) {
  std::vector<fr_t> out(a.size());
  fr_t x = g;
  for (std::size_t i = 0; i < a.size(); ++i, x *= d.omega()) out[i] = evaluate(a, x);
  return out;
}

class NaiveDft : public ::testing::TestWithParam<root_family> {
 protected:
  template <class F>
  void for_each_size(F&& f) {
    auto g = test::rng(std::uint64_t(GetParam()) + 1);
    for (unsigned k = 1; k <= 8; ++k) {
      SCOPED_TRACE("n = 2^" + std::to_string(k));
      domain d(k, GetParam());
      f(d, random_frs(g, d.size()), random_fr(g));
    }
  }
};

TEST_P(NaiveDft, ForwardEvaluatesAtPowersOfOmega) {
  for_each_size([](const domain& d, std::vector<fr_t> a, const fr_t&) {
    const auto want = naive_dft(d, a, fr_t::one());
    ntt(d, a);
    EXPECT_EQ(a, want);
  });
}

TEST_P(NaiveDft, InverseInterpolatesFromPowersOfOmega) {
  for_each_size([](const domain& d, std::vector<fr_t> a, const fr_t&) {
    auto evals = naive_dft(d, a, fr_t::one());
    intt(d, evals);
    EXPECT_EQ(evals, a);
  });
}

TEST_P(NaiveDft, CosetForwardEvaluatesOnEveryKindOfCoset) {
  for_each_size([](const domain& d, std::vector<fr_t> a, const fr_t& random_shift) {
    for (const fr_t& g : {random_shift, d.odd_coset_shift(), domain::coset_generator()}) {
      auto b = a;
      coset_ntt(d, b, g);
      EXPECT_EQ(b, naive_dft(d, a, g));
    }
  });
}

TEST_P(NaiveDft, CosetInverseInterpolatesOnEveryKindOfCoset) {
  for_each_size([](const domain& d, std::vector<fr_t> a, const fr_t& random_shift) {
    for (const fr_t& g : {random_shift, d.odd_coset_shift(), domain::coset_generator()}) {
      auto evals = naive_dft(d, a, g);
      coset_intt(d, evals, g);
      EXPECT_EQ(evals, a);
    }
  });
}

TEST(Ntt, SizeOneIsTheIdentityAndWrongLengthsAreRejected) {
  domain d1(0);
  std::vector<fr_t> one{fr_t::from_u64(42)};
  ntt(d1, one);
  intt(d1, one);
  coset_ntt(d1, one, fr_t::from_u64(9));
  coset_intt(d1, one, fr_t::from_u64(9));
  EXPECT_EQ(one[0], fr_t::from_u64(42));
  std::vector<fr_t> three(3);
  EXPECT_THROW(ntt(domain(2), three), std::invalid_argument);
}

INSTANTIATE_TEST_SUITE_P(Families, NaiveDft, ::testing::Values(root_family::bellman, root_family::snarkjs),
                         [](const auto& info) { return info.param == root_family::bellman ? "bellman" : "snarkjs"; });

}  // namespace
}  // namespace cuzk::poly
