// The two root families on each curve, against values from outside cuzk
// (Python, ffjavascript's Fr.w, gnark-crypto), and the domains built on them.
#include <gtest/gtest.h>

#include <string>

#include "poly/domain.hpp"
#include "poly/roots.hpp"
#include "poly_test.hpp"

namespace cuzk::poly {
namespace {

template <class F>
F dec(const char* s) {
  return *F::from_decimal(s);
}

/* ω^(2^(k-1)) == -1 and ω^(2^k) == 1: exactly the order 2^k */
template <class F>
void expect_exact_order(const F& w, unsigned k) {
  F x = w;
  for (unsigned i = 1; i < k; ++i) x = x.sqr();
  EXPECT_EQ(x, -F::one()) << "order below 2^" << k;
  EXPECT_EQ(x.sqr(), F::one());
}

template <class C>
class Roots : public ::testing::Test {};
TYPED_TEST_SUITE(Roots, test::curves_under_test, test::curve_names);

TYPED_TEST(Roots, TwoAdicityIsTheCurves) {
  EXPECT_EQ(max_log_size_of<TypeParam>, known_roots<TypeParam>::s);
  EXPECT_EQ(basic_domain<TypeParam>::max_log_size, known_roots<TypeParam>::s);
  EXPECT_EQ(max_log_size, 32u);  // BLS12-381's name
}

TYPED_TEST(Roots, FamiliesAreTheKnownTwoAdicRoots) {
  using F = ff::fr<TypeParam>;
  using K = known_roots<TypeParam>;
  EXPECT_EQ(root_base<TypeParam>(root_family::bellman), F::from_u64(K::generator));
  EXPECT_EQ(root_base<TypeParam>(root_family::snarkjs), F::from_u64(K::nqr));
  EXPECT_EQ(two_adic_root<TypeParam>(root_family::bellman), dec<F>(K::bellman));
  EXPECT_EQ(two_adic_root<TypeParam>(root_family::snarkjs), dec<F>(K::snarkjs));
  /* bellman's is the constant fr_params::root_of_unity = g^t, t = 2 ((t - 1) / 2) + 1 */
  const F g = F::from_u64(K::generator);
  EXPECT_EQ(two_adic_root<TypeParam>(root_family::bellman), g.pow(TypeParam::fr_params::t_minus1_over2).sqr() * g);
  /* the same roots on BN254 (5 is generator and smallest non-residue), different on BLS12-381 */
  EXPECT_EQ(two_adic_root<TypeParam>(root_family::bellman) == two_adic_root<TypeParam>(root_family::snarkjs),
            TypeParam::id == curves::curve_id::bn254);
}

TYPED_TEST(Roots, BasesAreNonResiduesAndSnarkjsTakesTheSmallest) {
  using F = ff::fr<TypeParam>;
  for (root_family f : both_families) EXPECT_EQ(root_base<TypeParam>(f).legendre(), -1) << family_name(f);
  for (std::uint64_t x = 2; x < known_roots<TypeParam>::nqr; ++x) EXPECT_EQ(F::from_u64(x).legendre(), 1) << x;
}

TYPED_TEST(Roots, SnarkjsFamilyIsFfjavascriptsFrW) {
  /* Fr.w[s] = nqr^t and Fr.w[k] = Fr.w[k+1]^2: primitive_root(k) squares the 2^s-th root down */
  using F = ff::fr<TypeParam>;
  using K = known_roots<TypeParam>;
  EXPECT_EQ(primitive_root<TypeParam>(K::s, root_family::snarkjs), dec<F>(K::ffjs_w_s));
  EXPECT_EQ(primitive_root<TypeParam>(5, root_family::snarkjs), dec<F>(K::ffjs_w_5));
  EXPECT_EQ(basic_domain<TypeParam>(5, root_family::snarkjs).omega(), dec<F>(K::ffjs_w_5));
  EXPECT_EQ(primitive_root<TypeParam>(0, root_family::snarkjs), F::one());  // Fr.w[0]
}

TYPED_TEST(Roots, TwoAdicRootsHaveOrderTwoToTheS) {
  for (root_family f : both_families) expect_exact_order(two_adic_root<TypeParam>(f), known_roots<TypeParam>::s);
}

TYPED_TEST(Roots, SizesBeyondTheTwoAdicityAreRefusedNamingTheCurve) {
  using D = basic_domain<TypeParam>;
  constexpr unsigned s = known_roots<TypeParam>::s;
  const std::string curve(curves::name(TypeParam::id));
  EXPECT_NO_THROW(D(s, root_family::snarkjs));
  for (root_family f : both_families) {
    try {
      D d(s + 1, f);
      ADD_FAILURE() << "2^" << s + 1 << " accepted";
    } catch (const std::invalid_argument& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("2^" + std::to_string(s + 1)), std::string::npos) << what;
      EXPECT_NE(what.find("2^" + std::to_string(s)), std::string::npos) << what;
      EXPECT_NE(what.find(curve), std::string::npos) << what;
    }
    EXPECT_THROW(D::cached(s + 1, f), std::invalid_argument);
    EXPECT_THROW(D(64, f), std::invalid_argument);
    EXPECT_THROW(primitive_root<TypeParam>(s + 1, f), std::invalid_argument);
  }
  /* the odd coset of 2^s would need a 2^(s+1)-th root */
  EXPECT_THROW(D(s).odd_coset_shift(), std::invalid_argument);
}

TYPED_TEST(Roots, OmegaHasExactOrderNAtEverySize) {
  using F = ff::fr<TypeParam>;
  for (root_family f : both_families) {
    SCOPED_TRACE(family_name(f));
    for (unsigned k = 0; k <= known_roots<TypeParam>::s; ++k) {
      basic_domain<TypeParam> d(k, f);
      if (k > 0) expect_exact_order(d.omega(), k);
      EXPECT_EQ(d.omega() * d.omega_inv(), F::one());
      F n = F::one();
      for (unsigned i = 0; i < k; ++i) n = n.dbl();  // 2^k
      EXPECT_EQ(d.size_inv() * n, F::one());
    }
  }
  EXPECT_EQ(basic_domain<TypeParam>(0).omega(), F::one());
}

TYPED_TEST(Roots, OddCosetShiftIsASquareRootOfOmegaWithZEqualMinusTwo) {
  using F = ff::fr<TypeParam>;
  constexpr unsigned s = known_roots<TypeParam>::s;
  for (root_family f : both_families) {
    for (unsigned k : {0u, 1u, 5u, 16u, s - 1}) {
      basic_domain<TypeParam> d(k, f);
      const F z = d.odd_coset_shift();
      EXPECT_EQ(z.sqr(), d.omega()) << k;
      EXPECT_EQ(d.vanishing_on_coset(z), -F::from_u64(2)) << k;  // ζ^n - 1 = -1 - 1
    }
  }
}

TYPED_TEST(Roots, CosetGeneratorIsTheCurvesGeneratorAndLiesOutsideEveryDomain) {
  using D = basic_domain<TypeParam>;
  const auto g = D::coset_generator();
  EXPECT_EQ(g, ff::fr<TypeParam>::from_u64(known_roots<TypeParam>::generator));
  for (unsigned k : {0u, 1u, 10u, 20u, known_roots<TypeParam>::s}) {
    D d(k);
    EXPECT_FALSE(d.vanishing_on_coset(g).is_zero()) << k;  // g^n != 1
    EXPECT_EQ(d.vanishing_on_coset(g) + ff::fr<TypeParam>::one(), g.pow(std::uint64_t(d.size())));
  }
}

TYPED_TEST(Roots, TwiddlesArePowersOfOmegaEndingInMinusOne) {
  using D = basic_domain<TypeParam>;
  using F = ff::fr<TypeParam>;
  for (root_family f : both_families) {
    D d(14, f);
    const auto tw = d.twiddles();
    ASSERT_EQ(tw.size(), d.size() / 2 + 1);
    for (std::size_t i : {0ul, 1ul, 2ul, 777ul, 4095ul, 8191ul}) EXPECT_EQ(tw[i], d.element(i));
    EXPECT_EQ(tw.back(), -F::one());
    const auto bt = d.block_twiddles();
    ASSERT_EQ(bt.size(), (std::size_t{1} << (D::block_log - 1)) + 1);
    const F wb = d.omega().pow(std::uint64_t(d.size() >> D::block_log));  // ω_B = ω^(n/B)
    EXPECT_EQ(bt[1], wb);
    EXPECT_EQ(bt[1000], wb.pow(std::uint64_t(1000)));
    EXPECT_EQ(bt.back(), -F::one());
  }
}

TYPED_TEST(Roots, CachedDomainsAreBuiltOncePerSizeAndFamily) {
  using D = basic_domain<TypeParam>;
  const D& a = D::cached(10, root_family::snarkjs);
  EXPECT_EQ(&a, &D::cached(10, root_family::snarkjs));
  EXPECT_NE(&a, &D::cached(10, root_family::bellman));
  EXPECT_NE(&a, &D::cached(11, root_family::snarkjs));
  EXPECT_EQ(a.omega(), D(10, root_family::snarkjs).omega());
  EXPECT_EQ(a.twiddles().data(), D::cached(10, root_family::snarkjs).twiddles().data());
}

TEST(Roots, BlsNamesAreBls12381s) {
  static_assert(std::is_same_v<decltype(primitive_root(3, root_family::bellman)), fr_t>);
  EXPECT_EQ(primitive_root(20, root_family::snarkjs), primitive_root<curves::bls12_381>(20, root_family::snarkjs));
  EXPECT_EQ(basic_domain<curves::bls12_381>::coset_generator(), fr_t::from_u64(7));
  EXPECT_THROW(basic_domain<curves::bls12_381>(33), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::poly
