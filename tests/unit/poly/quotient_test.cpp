// H = (AB - C)/Z in both conventions, on each curve, against a schoolbook
// polynomial division at n = 64 and by identities at a random point at
// n = 2^14 (past the in-cache block).
#include <gtest/gtest.h>

#include <vector>

#include "poly/ntt.hpp"
#include "poly/quotient.hpp"
#include "poly/vector_ops.hpp"
#include "poly_test.hpp"

namespace cuzk::poly {
namespace {

template <class C>
std::vector<ff::fr<C>> evals_on_h(const basic_domain<C>& d, std::vector<ff::fr<C>> coeffs) {
  ntt(d, coeffs);
  return coeffs;
}

template <class C>
class Quotient : public ::testing::Test {};
TYPED_TEST_SUITE(Quotient, test::curves_under_test, test::curve_names);

TYPED_TEST(Quotient, BothConventionsMatchSchoolbookDivisionAt64) {
  using F = ff::fr<TypeParam>;
  auto rng = curve_rng<TypeParam>(31);
  for (root_family f : both_families) {
    SCOPED_TRACE(family_name(f));
    basic_domain<TypeParam> d(6, f);
    const std::size_t n = d.size();
    const auto a = random_vector<F>(rng, n), b = random_vector<F>(rng, n);
    /* P = A B (degree 2n - 2); P = Hq (x^n - 1) + R with deg R < n: Hq_i = Σ_{k >= 1} P_{i + kn} */
    std::vector<F> p(2 * n - 1);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) p[i + j] += a[i] * b[j];
    std::vector<F> hq(n), r(p.begin(), p.begin() + n);
    for (std::size_t i = 0; i + n < p.size(); ++i) hq[i] = p[i + n], r[i] += p[i + n];
    /* C := R, so AB - C = Hq Z exactly and deg Hq = n - 2 */

    auto ea = evals_on_h(d, a), eb = evals_on_h(d, b), ec = evals_on_h(d, r);
    compute_h(d, ea, eb, ec, h_convention::coefficients);
    EXPECT_EQ(ea, hq);

    ea = evals_on_h(d, a), eb = evals_on_h(d, b), ec = evals_on_h(d, r);
    compute_h(d, ea, eb, ec, h_convention::odd_coset);
    const F zeta = d.odd_coset_shift();
    for (std::size_t i = 0; i < n; ++i)  // (AB - C)(ζω^i) = Hq(ζω^i) Z(ζω^i) = -2 Hq(ζω^i)
      ASSERT_EQ(ea[i], -F::from_u64(2) * evaluate(hq, zeta * d.element(i))) << i;
  }
}

TYPED_TEST(Quotient, ConventionsAgreeAndSatisfyTheQapIdentityAt2To14) {
  using F = ff::fr<TypeParam>;
  auto rng = curve_rng<TypeParam>(32);
  basic_domain<TypeParam> d(14, root_family::snarkjs);
  /* random A, B on H and C = A B there: AB - C vanishes on H */
  const auto ea = random_vector<F>(rng, d.size()), eb = random_vector<F>(rng, d.size());
  auto ec = ea;
  mul_assign(ec, eb);

  auto h = ea, b1 = eb, c1 = ec;
  compute_h(d, h, b1, c1, h_convention::coefficients);
  EXPECT_TRUE(h.back().is_zero());  // deg H <= n - 2

  /* A(x) B(x) - C(x) = H(x)(x^n - 1) at a random x */
  auto ca = ea, cb = eb, cc = ec;
  intt(d, ca);
  intt(d, cb);
  intt(d, cc);
  const F x = F::random(rng);
  EXPECT_EQ(evaluate(ca, x) * evaluate(cb, x) - evaluate(cc, x),
            evaluate(h, x) * (x.pow(std::uint64_t(d.size())) - F::one()));

  /* on ζH, x^n = -1: coset_intt of the odd-coset values is H Z mod (x^n + 1) = -2 H */
  auto odd = ea, b2 = eb, c2 = ec;
  compute_h(d, odd, b2, c2, h_convention::odd_coset);
  coset_intt(d, odd, d.odd_coset_shift());
  scale(h, -F::from_u64(2));
  EXPECT_TRUE(odd == h);
}

TYPED_TEST(Quotient, OddCosetNeedsADomainBelowTheTwoAdicity) {
  /* 2^s has no ζ; checked before any work, on empty spans */
  const basic_domain<TypeParam> d(known_roots<TypeParam>::s, root_family::snarkjs);
  std::vector<ff::fr<TypeParam>> none;
  EXPECT_THROW(compute_h(d, none, none, none, h_convention::odd_coset), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::poly
