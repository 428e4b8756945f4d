// Every transform against the O(n^2) DFT, n = 1 ... 256, both root families,
// on each curve.
#include <gtest/gtest.h>

#include <vector>

#include "poly/ntt.hpp"
#include "poly/vector_ops.hpp"
#include "poly_test.hpp"

namespace cuzk::poly {
namespace {

/* A_i = Σ_j a_j (g ω^i)^j = p(g ω^i) */
template <class C>
std::vector<ff::fr<C>> naive_dft(const basic_domain<C>& d, const std::vector<ff::fr<C>>& a, const ff::fr<C>& g) {
  std::vector<ff::fr<C>> out(a.size());
  ff::fr<C> x = g;
  for (std::size_t i = 0; i < a.size(); ++i, x *= d.omega()) out[i] = evaluate(a, x);
  return out;
}

template <class C>
class NaiveDft : public ::testing::Test {
 protected:
  using F = ff::fr<C>;
  /* f(d, a, random shift) for every size 2^0 ... 2^8 of both families */
  template <class Fn>
  void for_each_size(std::uint64_t salt, Fn&& f) {
    auto g = curve_rng<C>(salt);
    for (root_family fam : both_families)
      for (unsigned k = 0; k <= 8; ++k) {
        SCOPED_TRACE(std::string(family_name(fam)) + ", n = 2^" + std::to_string(k));
        basic_domain<C> d(k, fam);
        f(d, random_vector<F>(g, d.size()), F::random(g));
      }
  }
};
TYPED_TEST_SUITE(NaiveDft, test::curves_under_test, test::curve_names);

TYPED_TEST(NaiveDft, ForwardEvaluatesAtPowersOfOmega) {
  using F = ff::fr<TypeParam>;
  this->for_each_size(1, [](const basic_domain<TypeParam>& d, std::vector<F> a, const F&) {
    const auto want = naive_dft(d, a, F::one());
    ntt(d, a);
    EXPECT_EQ(a, want);
  });
}

TYPED_TEST(NaiveDft, InverseInterpolatesFromPowersOfOmega) {
  using F = ff::fr<TypeParam>;
  this->for_each_size(2, [](const basic_domain<TypeParam>& d, std::vector<F> a, const F&) {
    auto evals = naive_dft(d, a, F::one());
    intt(d, evals);
    EXPECT_EQ(evals, a);
  });
}

TYPED_TEST(NaiveDft, CosetForwardEvaluatesOnEveryKindOfCoset) {
  using F = ff::fr<TypeParam>;
  this->for_each_size(3, [](const basic_domain<TypeParam>& d, std::vector<F> a, const F& random_shift) {
    for (const F& g : {random_shift, d.odd_coset_shift(), basic_domain<TypeParam>::coset_generator()}) {
      auto b = a;
      coset_ntt(d, b, g);
      EXPECT_EQ(b, naive_dft(d, a, g));
    }
  });
}

TYPED_TEST(NaiveDft, CosetInverseInterpolatesOnEveryKindOfCoset) {
  using F = ff::fr<TypeParam>;
  this->for_each_size(4, [](const basic_domain<TypeParam>& d, std::vector<F> a, const F& random_shift) {
    for (const F& g : {random_shift, d.odd_coset_shift(), basic_domain<TypeParam>::coset_generator()}) {
      auto evals = naive_dft(d, a, g);
      coset_intt(d, evals, g);
      EXPECT_EQ(evals, a);
    }
  });
}

TYPED_TEST(NaiveDft, WrongLengthsAreRejected) {
  using F = ff::fr<TypeParam>;
  const basic_domain<TypeParam> d(2);
  std::vector<F> three(3);
  EXPECT_THROW(ntt(d, three), std::invalid_argument);
  EXPECT_THROW(intt(d, three), std::invalid_argument);
  EXPECT_THROW(coset_ntt(d, three, F::one()), std::invalid_argument);
  EXPECT_THROW(coset_intt(d, three, F::one()), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::poly
