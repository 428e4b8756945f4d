// Shared by the poly tests, which are typed over the curves under test
// (TYPED_TEST_SUITE(Foo, test::curves_under_test, test::curve_names)):
// random vectors of a curve's Fr, a generator per test and curve, the two root
// families, and what is known of each curve's roots from outside cuzk.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <ostream>
#include <random>
#include <vector>

#include "curves_under_test.hpp"
#include "poly/domain.hpp"
#include "seed.hpp"

namespace cuzk::poly {

inline const char* family_name(root_family f) { return f == root_family::bellman ? "bellman" : "snarkjs"; }
inline void PrintTo(root_family f, std::ostream* os) { *os << family_name(f); }
inline constexpr root_family both_families[] = {root_family::bellman, root_family::snarkjs};

/* seeded per run, per test (salt) and per curve */
template <class C>
std::mt19937_64 curve_rng(std::uint64_t salt) {
  return test::rng(2 * salt + (C::id == curves::curve_id::bn254 ? 1 : 0));
}

template <class F>
std::vector<F> random_vector(std::mt19937_64& g, std::size_t n) {
  std::vector<F> v(n);
  for (auto& x : v) x = F::random(g);
  return v;
}

/* Each curve's roots as other tools have them (decimal, canonical):
   s, the two-adicity; the bases of the families (fr_params::generator and
   ffjavascript's nqr); the families' 2^s-th roots, pow(7 or 5, (r - 1) >> s, r)
   by Python; ffjavascript 0.3.1's Fr.w[s] and Fr.w[5] (getCurveFromName
   "bls12381" / "bn128"). The bellman root of BN254 is gnark-crypto's
   bn254/fr RootOfUnity too. */
template <class C>
struct known_roots;
template <>
struct known_roots<curves::bls12_381> {
  static constexpr unsigned s = 32;
  static constexpr std::uint64_t generator = 7, nqr = 5;
  static constexpr const char* bellman =
      "10238227357739495823651030575849232062558860180284477541189508159991286009131";
  static constexpr const char* snarkjs = "937917089079007706106976984802249742464848817460758522850752807661925904159";
  static constexpr const char* ffjs_w_s = snarkjs;
  static constexpr const char* ffjs_w_5 =
      "32311457133713125762627935188100354218453688428796477340173861531654182464166";
};
template <>
struct known_roots<curves::bn254> {
  static constexpr unsigned s = 28;
  static constexpr std::uint64_t generator = 5, nqr = 5;
  static constexpr const char* bellman =
      "19103219067921713944291392827692070036145651957329286315305642004821462161904";
  static constexpr const char* snarkjs = bellman;
  static constexpr const char* ffjs_w_s = snarkjs;
  static constexpr const char* ffjs_w_5 =
      "4419234939496763621076330863786513495701855246241724391626358375488475697872";
};

}  // namespace cuzk::poly
