// H = (AB - C)/Z in both conventions, against a schoolbook polynomial
// division at n = 64 and by identities at a random point at n = 2^16.
#include <gtest/gtest.h>

#include <vector>

#include "poly/ntt.hpp"
#include "poly/quotient.hpp"
#include "poly/vector_ops.hpp"
#include "random.hpp"
#include "root_family_name.hpp"
#include "seed.hpp"

namespace cuzk::poly {
namespace {

using test::random_fr;
using test::random_frs;

std::vector<fr_t> evals_on_h(const domain& d, std::vector<fr_t> coeffs) {
  ntt(d, coeffs);
  return coeffs;
}

TEST(Quotient, BothConventionsMatchSchoolbookDivisionAt64) {
  auto rng = test::rng(31);
  for (root_family f : {root_family::bellman, root_family::snarkjs}) {
    domain d(6, f);
    const std::size_t n = d.size();
    const auto a = random_frs(rng, n), b = random_frs(rng, n);
    /* P = A B (degree 2n - 2); P = Hq (x^n - 1) + R with deg R < n: Hq_i = Σ_{k >= 1} P_{i + kn} */
    std::vector<fr_t> p(2 * n - 1);
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) p[i + j] += a[i] * b[j];
    std::vector<fr_t> hq(n), r(p.begin(), p.begin() + n);
    for (std::size_t i = 0; i + n < p.size(); ++i) hq[i] = p[i + n], r[i] += p[i + n];
    /* C := R, so AB - C = Hq Z exactly and deg Hq = n - 2 */

    auto ea = evals_on_h(d, a), eb = evals_on_h(d, b), ec = evals_on_h(d, r);
    compute_h(d, ea, eb, ec, h_convention::coefficients);
    EXPECT_EQ(ea, hq);

    ea = evals_on_h(d, a), eb = evals_on_h(d, b), ec = evals_on_h(d, r);
    compute_h(d, ea, eb, ec, h_convention::odd_coset);
    const fr_t zeta = d.odd_coset_shift();
    for (std::size_t i = 0; i < n; ++i)  // (AB - C)(ζω^i) = Hq(ζω^i) Z(ζω^i) = -2 Hq(ζω^i)
      ASSERT_EQ(ea[i], -fr_t::from_u64(2) * evaluate(hq, zeta * d.element(i))) << i;
  }
}

TEST(Quotient, ConventionsAgreeAndSatisfyTheQapIdentityAt2To16) {
  auto rng = test::rng(32);
  domain d(16, root_family::snarkjs);
  /* random A, B on H and C = A B there: AB - C vanishes on H */
  const auto ea = random_frs(rng, d.size()), eb = random_frs(rng, d.size());
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
  const fr_t x = random_fr(rng);
  EXPECT_EQ(evaluate(ca, x) * evaluate(cb, x) - evaluate(cc, x), evaluate(h, x) * (x.pow(std::uint64_t(d.size())) - fr_t::one()));

  /* on ζH, x^n = -1: coset_intt of the odd-coset values is H Z mod (x^n + 1) = -2 H */
  auto odd = ea, b2 = eb, c2 = ec;
  compute_h(d, odd, b2, c2, h_convention::odd_coset);
  coset_intt(d, odd, d.odd_coset_shift());
  scale(h, -fr_t::from_u64(2));
  EXPECT_TRUE(odd == h);
}

}  // namespace
}  // namespace cuzk::poly
