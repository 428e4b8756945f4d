// What the Fp6/Fp12 and pairing tests share, for each curve C under test
// (BLS12-381, BN254): the typed-test list and its names, the curve's numbers
// written out here independently of the library's constants (p, r, x, b, xi,
// the twist type and the final exponentiation's factor), GMP exponents, and
// random tower elements.
#pragma once

#include <gmpxx.h>
#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "curves/bls12_381.hpp"
#include "curves/bn254.hpp"
#include "ff/fp12.hpp"
#include "ff/fr.hpp"
#include "curves_under_test.hpp"
#include "seed.hpp"

namespace cuzk::test {

/* The curves as their specifications state them. */
template <class C>
struct curve_facts;

/* BLS12-381 (draft-irtf-cfrg-pairing-friendly-curves section 4.2.1; the GT
   convention of zcash bls12_381, blst and @noble/curves) */
template <>
struct curve_facts<curves::bls12_381> {
  static const mpz_class& p() {
    static const mpz_class v(
        "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab", 16);
    return v;
  }
  static const mpz_class& r() {
    static const mpz_class v("73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001", 16);
    return v;
  }
  static mpz_class x() { return mpz_class("-d201000000010000", 16); }
  /* e(P, Q) = f^(c (p^12 - 1) / r) with c = 3 */
  static mpz_class final_exponent_factor() { return 3; }
  static constexpr unsigned b = 4;       // G1: y^2 = x^3 + 4
  static constexpr unsigned xi_c0 = 1;   // xi = 1 + u
  static constexpr bool m_twist = true;  // G2: y^2 = x^3 + b xi
};

/* BN254 (EIP-196/197; the GT convention of arkworks, gnark and @noble/curves) */
template <>
struct curve_facts<curves::bn254> {
  static const mpz_class& p() {
    static const mpz_class v("21888242871839275222246405745257275088696311157297823662689037894645226208583");
    return v;
  }
  static const mpz_class& r() {
    static const mpz_class v("21888242871839275222246405745257275088548364400416034343698204186575808495617");
    return v;
  }
  static mpz_class x() { return mpz_class("4965661367192848881"); }
  /* e(P, Q) = f^(c (p^12 - 1) / r) with c = 2x (6x^2 + 3x + 1) */
  static mpz_class final_exponent_factor() {
    const mpz_class v = x();
    return 2 * v * (6 * v * v + 3 * v + 1);
  }
  static constexpr unsigned b = 3;        // G1: y^2 = x^3 + 3
  static constexpr unsigned xi_c0 = 9;    // xi = 9 + u
  static constexpr bool m_twist = false;  // G2: y^2 = x^3 + b / xi
};

template <class C>
const mpz_class& mpz_p() {
  return curve_facts<C>::p();
}
template <class C>
const mpz_class& mpz_r() {
  return curve_facts<C>::r();
}
/* p^k */
template <class C>
mpz_class p_pow(unsigned k) {
  mpz_class v;
  mpz_pow_ui(v.get_mpz_t(), mpz_p<C>().get_mpz_t(), k);
  return v;
}

/* a non-negative integer below 2^(64 N) as little-endian limbs */
template <std::size_t N>
ff::limbs::big<N> to_limbs(const mpz_class& v) {
  if (v < 0 || mpz_sizeinbase(v.get_mpz_t(), 2) > 64 * N) throw std::range_error("to_limbs: out of range");
  ff::limbs::big<N> out{};
  std::size_t count = 0;
  mpz_export(out.data(), &count, -1, sizeof(std::uint64_t), 0, 0, v.get_mpz_t());
  return out;
}
template <std::size_t N>
mpz_class to_mpz(const std::array<std::uint64_t, N>& l) {
  mpz_class v;
  mpz_import(v.get_mpz_t(), N, -1, sizeof(std::uint64_t), 0, 0, l.data());
  return v;
}

/* The tower of C and uniform random elements of it. */
template <class C>
struct tower_of {
  using fp_t = ff::fp<C>;
  using fp2_t = ff::fp2<C>;
  using fp6_t = ff::fp6<C>;
  using fp12_t = ff::fp12<C>;
  using fr_t = ff::fr<C>;
  /* limbs of Fp: an exponent below p^k fits in k N limbs */
  static constexpr std::size_t N = C::fp_params::n_limbs;

  static fp_t random_fp(std::mt19937_64& g) { return fp_t::random(g); }
  static fp2_t random_fp2(std::mt19937_64& g) { return {random_fp(g), random_fp(g)}; }
  static fp6_t random_fp6(std::mt19937_64& g) { return {random_fp2(g), random_fp2(g), random_fp2(g)}; }
  static fp12_t random_fp12(std::mt19937_64& g) { return {random_fp6(g), random_fp6(g)}; }
  static fr_t random_fr(std::mt19937_64& g) { return fr_t::random(g); }

  /* xi = k + u, from curve_facts (not from C::xi_c0) */
  static fp2_t xi() { return {fp_t::from_u64(curve_facts<C>::xi_c0), fp_t::one()}; }
  /* p - 1 as Montgomery limbs: the largest reduced coefficient */
  static fp_t top() { return fp_t::from_montgomery(to_limbs<N>(mpz_p<C>() - 1)); }
};

/* A generator for one test and one curve: seed(), the test's salt and the curve. */
template <class C>
std::mt19937_64 curve_rng(std::uint64_t salt) {
  return rng(salt + 0x1000 * std::uint64_t(C::id));
}

}  // namespace cuzk::test
