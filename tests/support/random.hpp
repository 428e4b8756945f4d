// Random values for the tests, uniform, drawn from a generator of seed.hpp:
// field elements and scalars, points of G1 and G2, and the traits and typed
// fixture that run one test body over both groups:
//   template <class G> class Foo : public test::group_test<G, SALT> {};
//   TYPED_TEST_SUITE(Foo, test::both_groups);
// Header only: a test links the libraries (cuzk_ff, cuzk_ec) of what it uses.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "ec/batch_affine.hpp"
#include "ec/config.hpp"
#include "ec/scalar_mul.hpp"
#include "ff/fp12.hpp"
#include "ff/fr.hpp"
#include "seed.hpp"

namespace cuzk::test {

/* C: the curve, BLS12-381 unless named */
template <class C = curves::bls12_381>
ff::fr<C> random_fr(std::mt19937_64& g) {
  return ff::fr<C>::random(g);
}
template <class C = curves::bls12_381>
std::vector<ff::fr<C>> random_frs(std::mt19937_64& g, std::size_t n) {
  std::vector<ff::fr<C>> v(n);
  for (auto& x : v) x = random_fr<C>(g);
  return v;
}
/* a canonical integer below r */
template <class C = curves::bls12_381>
ec::scalar_limbs_t random_scalar(std::mt19937_64& g) {
  return random_fr<C>(g).to_canonical();
}

inline ff::fp_t random_fp(std::mt19937_64& g) { return ff::fp_t::random(g); }
inline ff::fp2_t random_fp2(std::mt19937_64& g) { return {random_fp(g), random_fp(g)}; }
inline ff::fp6_t random_fp6(std::mt19937_64& g) { return {random_fp2(g), random_fp2(g), random_fp2(g)}; }
inline ff::fp12_t random_fp12(std::mt19937_64& g) { return {random_fp6(g), random_fp6(g)}; }

/* a random element of Fp or Fp2 of either curve */
template <class F>
F random_field(std::mt19937_64& g) {
  if constexpr (requires { typename F::base_t; }) {
    return {F::base_t::random(g), F::base_t::random(g)};
  } else {
    return F::random(g);
  }
}

/* G1 or G2 (of either curve: Curve = ec::g1_group<C>, ec::g2_group<C>) for typed tests */
template <class Curve>
struct group {
  using C = typename Curve::curve;
  using curve_t = Curve;
  using jac_t = ec::jacobian<Curve>;
  using aff_t = typename jac_t::affine_t;
  using field_t = typename Curve::field_t;

  static jac_t random_point(std::mt19937_64& g) { return ec::mul(jac_t::generator(), random_scalar<C>(g)); }

  /* n distinct points P_0 + i Q for random P_0, Q, in one batch normalization */
  static std::vector<aff_t> random_bases(std::mt19937_64& g, std::size_t n) {
    std::vector<jac_t> jac(n);
    jac_t p = random_point(g);
    const aff_t q = random_point(g).to_affine();
    for (auto& x : jac) {
      x = p;
      p += q;
    }
    return ec::batch_to_affine<Curve>(std::span<const jac_t>(jac));
  }

  /* A point of the whole curve E(F): almost surely outside the order-r
     subgroup, since the cofactor is not multiplied in. */
  static aff_t random_curve_point(std::mt19937_64& g) {
    for (;;) {
      const field_t x = random_field<field_t>(g);
      if (auto y = (x.sqr() * x + Curve::b()).sqrt()) return {x, (g() & 1) ? *y : -*y, false};
    }
  }

  /* sum_i k_i P_i, one scalar multiplication at a time */
  static jac_t naive(std::span<const aff_t> bases, std::span<const ff::fr<C>> scalars) {
    jac_t sum;
    for (std::size_t i = 0; i < bases.size(); ++i) sum += ec::mul(jac_t::from_affine(bases[i]), scalars[i]);
    return sum;
  }
};
using g1 = group<ec::g1_curve>;
using g2 = group<ec::g2_curve>;
using both_groups = ::testing::Types<g1, g2>;

/* A typed test's fixture over G (group<> or a type derived from it), with a
   generator seeded per run, per suite (Salt) and per curve. */
template <class G, std::uint64_t Salt>
class group_test : public ::testing::Test {
 protected:
  std::mt19937_64 rng = cuzk::test::rng(std::hash<std::string>{}(G::curve_t::name) + Salt);
};

}  // namespace cuzk::test
