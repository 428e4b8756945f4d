// Helpers for the ec tests: hex, and the curve-generic traits and fixtures that
// run one typed test body over BLS12-381 and BN254 (tests/support/random.hpp
// has the BLS12-381-only ones, test::g1, test::g2, which the zcash tests use).
//   template <class G> class Foo : public test::ec_group_test<G, SALT> {};
//   TYPED_TEST_SUITE(Foo, test::all_groups, test::group_names);   // G1, G2 of both curves
//   template <class C> class Bar : public test::curve_test<C, SALT> {};
//   TYPED_TEST_SUITE(Bar, test::both_curves, test::curve_names);
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "curves/bls12_381.hpp"
#include "curves/bn254.hpp"
#include "curves_under_test.hpp"
#include "ec/subgroup.hpp"
#include "random.hpp"

namespace cuzk::test {

inline std::string to_hex(const std::uint8_t* p, std::size_t n) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (std::size_t i = 0; i < n; ++i) {
    s.push_back(digits[p[i] >> 4]);
    s.push_back(digits[p[i] & 15]);
  }
  return s;
}
template <class Bytes>
std::string to_hex(const Bytes& b) {
  return to_hex(b.data(), b.size());
}
inline std::vector<std::uint8_t> from_hex(const std::string& s) {
  std::vector<std::uint8_t> out(s.size() / 2);
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = (std::uint8_t)std::stoul(s.substr(2 * i, 2), nullptr, 16);
  return out;
}

/* ---- curve-generic helpers ---- */

using both_curves = curves_under_test;

template <class C>
constexpr bool is_bn254 = C::id == curves::curve_id::bn254;

/* the curve parameter x as an element of Fr (negative on BLS12-381) */
template <class C>
ff::fr<C> x_in_fr() {
  auto x = ff::fr<C>::from_u64(C::x_abs);
  return C::x_negative ? -x : x;
}
/* x mod r as an integer, for mul_any */
template <class C>
ec::scalar_limbs_t x_mod_r() {
  return x_in_fr<C>().to_canonical();
}

/* any little-endian integer reduced mod r, by Horner in Fr */
template <class C, std::size_t N>
ff::fr<C> to_fr(const ff::limbs::big<N>& v) {
  using F = ff::fr<C>;
  F two64 = F::from_u64(std::uint64_t(1) << 32).sqr(), acc = F::zero();
  for (std::size_t i = N; i-- > 0;) acc = acc * two64 + F::from_u64(v[i]);
  return acc;
}
/* p mod r: the eigenvalue of psi on G2 (p = t - 1 mod r) */
template <class C>
ff::fr<C> p_in_fr() {
  return to_fr<C>(C::fp_params::modulus);
}

/* G1 or G2 of a curve C, for typed tests; G is ec::g1_group<C> or g2_group<C> */
template <class G>
struct ec_group {
  using curve_t = G;
  using C = typename G::curve;
  using jac_t = ec::jacobian<G>;
  using aff_t = typename jac_t::affine_t;
  using field_t = typename G::field_t;
  using fp_t = ff::fp<C>;
  using fr_t = ff::fr<C>;
  static constexpr bool is_g2 = std::is_same_v<field_t, ff::fp2<C>>;
  /* BN254's G1 is the whole curve E(Fp); every other group has a cofactor */
  static constexpr bool has_cofactor = !(is_bn254<C> && !is_g2);

  static std::string name() { return std::string(curve_name<C>) + "_" + G::name; }

  static field_t random_field(std::mt19937_64& g) {
    if constexpr (is_g2)
      return {fp_t::random(g), fp_t::random(g)};
    else
      return fp_t::random(g);
  }
  static fr_t random_fr(std::mt19937_64& g) { return fr_t::random(g); }
  /* a canonical integer below r */
  static ec::scalar_limbs_t random_scalar(std::mt19937_64& g) { return random_fr(g).to_canonical(); }
  /* a random point of the order-r subgroup */
  static jac_t random_point(std::mt19937_64& g) { return ec::mul(jac_t::generator(), random_scalar(g)); }

  /* A point of the whole curve E(F), by hashing x to the curve: from a random
     x, try x, x + 1, ... until x^3 + b has a square root y. Almost surely
     outside the order-r subgroup when the group has a cofactor (the cofactor
     is not multiplied in). */
  static aff_t random_curve_point(std::mt19937_64& g) {
    field_t x = random_field(g);
    for (int tries = 0; tries < 256; ++tries, x = x + field_t::one()) {
      if (auto y = (x.sqr() * x + G::b()).sqrt()) return {x, (g() & 1) ? *y : -*y, false};
    }
    throw std::runtime_error(name() + ": no square among 256 consecutive x^3 + b (sqrt broken?)");
  }
};
template <class C>
using g1_of = ec_group<ec::g1_group<C>>;
template <class C>
using g2_of = ec_group<ec::g2_group<C>>;

using all_groups =
    ::testing::Types<g1_of<curves::bls12_381>, g2_of<curves::bls12_381>, g1_of<curves::bn254>, g2_of<curves::bn254>>;
struct group_names {
  template <class G>
  static std::string GetName(int) {
    return G::name();
  }
};

/* Fixtures with a generator seeded per run, per suite (Salt) and per type. */
template <class G, std::uint64_t Salt>
class ec_group_test : public ::testing::Test {
 protected:
  std::mt19937_64 rng = cuzk::test::rng(std::hash<std::string>{}(G::name()) + Salt);
};
template <class C, std::uint64_t Salt>
class curve_test : public ::testing::Test {
 protected:
  std::mt19937_64 rng = cuzk::test::rng(std::hash<std::string>{}(curve_name<C>)+Salt);
};

}  // namespace cuzk::test
