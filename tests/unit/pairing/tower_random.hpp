// Random tower elements and GMP-computed exponents for the Fp6/Fp12 and
// pairing tests.
#pragma once

#include <gmpxx.h>

#include <cstddef>
#include <random>
#include <stdexcept>

#include "ff/fp12.hpp"
#include "ff/fr.hpp"

namespace cuzk::test {

inline ff::fp_t random_fp(std::mt19937_64& g) { return ff::fp_t::random(g); }
inline ff::fr_t random_fr(std::mt19937_64& g) { return ff::fr_t::random(g); }
inline ff::fp2_t random_fp2(std::mt19937_64& g) { return {random_fp(g), random_fp(g)}; }
inline ff::fp6_t random_fp6(std::mt19937_64& g) { return {random_fp2(g), random_fp2(g), random_fp2(g)}; }
inline ff::fp12_t random_fp12(std::mt19937_64& g) { return {random_fp6(g), random_fp6(g)}; }

inline const mpz_class& mpz_p() {
  static const mpz_class p(
      "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab", 16);
  return p;
}
inline const mpz_class& mpz_r() {
  static const mpz_class r("73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001", 16);
  return r;
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

/* p^k */
inline mpz_class p_pow(unsigned k) {
  mpz_class r;
  mpz_pow_ui(r.get_mpz_t(), mpz_p().get_mpz_t(), k);
  return r;
}

}  // namespace cuzk::test
