#include <gtest/gtest.h>

#include "poly/domain.hpp"
#include "poly/roots.hpp"
#include "random.hpp"
#include "root_family_name.hpp"

namespace cuzk::poly {
namespace {

fr_t dec(const char* s) { return *fr_t::from_decimal(s); }

/* ω^(2^(k-1)) == -1 and ω^(2^k) == 1: exactly the order 2^k */
void expect_exact_order(const fr_t& w, unsigned k) {
  fr_t x = w;
  for (unsigned i = 1; i < k; ++i) x = x.sqr();
  EXPECT_EQ(x, -fr_t::one()) << "order below 2^" << k;
  EXPECT_EQ(x.sqr(), fr_t::one());
}

TEST(Roots, FamiliesAreTheKnownTwoAdicRoots) {
  /* pow(7, (r-1) >> 32, r) and pow(5, (r-1) >> 32, r), by Python */
  EXPECT_EQ(two_adic_root(root_family::bellman),
            dec("10238227357739495823651030575849232062558860180284477541189508159991286009131"));
  EXPECT_EQ(two_adic_root(root_family::snarkjs),
            dec("937917089079007706106976984802249742464848817460758522850752807661925904159"));
  EXPECT_EQ(two_adic_root(root_family::bellman), fr_t::from_u64(7).pow(ff::fr_params::t_minus1_over2).sqr() * fr_t::from_u64(7));
}

TEST(Roots, TwoAdicRootsHaveOrderTwoToThe32) {
  expect_exact_order(two_adic_root(root_family::bellman), 32);
  expect_exact_order(two_adic_root(root_family::snarkjs), 32);
}

class DomainOfFamily : public ::testing::TestWithParam<root_family> {};

TEST_P(DomainOfFamily, OmegaHasExactOrderNAtEverySize) {
  for (unsigned k = 1; k <= 32; ++k) {
    domain d(k, GetParam());
    expect_exact_order(d.omega(), k);
    EXPECT_EQ(d.omega() * d.omega_inv(), fr_t::one());
    fr_t n = fr_t::one();
    for (unsigned i = 0; i < k; ++i) n = n.dbl();  // 2^k
    EXPECT_EQ(d.size_inv() * n, fr_t::one());
  }
}

TEST_P(DomainOfFamily, OddCosetShiftIsASquareRootOfOmegaWithZEqualMinusTwo) {
  for (unsigned k : {1u, 5u, 16u, 28u, 31u}) {
    domain d(k, GetParam());
    const fr_t z = d.odd_coset_shift();
    EXPECT_EQ(z.sqr(), d.omega());
    EXPECT_EQ(d.vanishing_on_coset(z), -fr_t::from_u64(2));  // ζ^n - 1 = -1 - 1
  }
  EXPECT_THROW(domain(32, GetParam()).odd_coset_shift(), std::invalid_argument);
}

TEST_P(DomainOfFamily, BellmanGeneratorLiesOutsideEveryDomain) {
  const fr_t g = domain::coset_generator();
  EXPECT_EQ(g, fr_t::from_u64(7));
  for (unsigned k : {1u, 10u, 20u, 28u}) {
    domain d(k, GetParam());
    EXPECT_FALSE(d.vanishing_on_coset(g).is_zero());  // 7^n != 1
    EXPECT_EQ(d.vanishing_on_coset(g) + fr_t::one(), g.pow(std::uint64_t(d.size())));
  }
}

TEST_P(DomainOfFamily, TwiddlesArePowersOfOmegaEndingInMinusOne) {
  domain d(14, GetParam());
  const auto tw = d.twiddles();
  ASSERT_EQ(tw.size(), d.size() / 2 + 1);
  for (std::size_t i : {0ul, 1ul, 2ul, 777ul, 4095ul, 8191ul}) EXPECT_EQ(tw[i], d.element(i));
  EXPECT_EQ(tw.back(), -fr_t::one());
  const auto bt = d.block_twiddles();
  ASSERT_EQ(bt.size(), (std::size_t{1} << (domain::block_log - 1)) + 1);
  const fr_t wb = d.omega().pow(std::uint64_t(d.size() >> domain::block_log));  // ω_B = ω^(n/B)
  EXPECT_EQ(bt[1], wb);
  EXPECT_EQ(bt[1000], wb.pow(std::uint64_t(1000)));
  EXPECT_EQ(bt.back(), -fr_t::one());
}

TEST(NttDomain, CachedDomainsAreBuiltOncePerSizeAndFamily) {
  const domain& a = domain::cached(10, root_family::snarkjs);
  EXPECT_EQ(&a, &domain::cached(10, root_family::snarkjs));
  EXPECT_NE(&a, &domain::cached(10, root_family::bellman));
  EXPECT_EQ(a.omega(), domain(10, root_family::snarkjs).omega());
  EXPECT_EQ(a.twiddles().data(), domain::cached(10, root_family::snarkjs).twiddles().data());
}

TEST(NttDomain, RejectsSizesBeyondTwoToThe32) { EXPECT_THROW(domain(33), std::invalid_argument); }

INSTANTIATE_TEST_SUITE_P(Families, DomainOfFamily, ::testing::Values(root_family::bellman, root_family::snarkjs),
                         [](const auto& info) { return info.param == root_family::bellman ? "bellman" : "snarkjs"; });

}  // namespace
}  // namespace cuzk::poly
