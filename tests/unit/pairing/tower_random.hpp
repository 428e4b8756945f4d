// GMP-computed constants and exponents for the Fp6/Fp12 and pairing tests;
// the random tower elements are in tests/support/random.hpp.
#pragma once

#include <gmpxx.h>

#include <cstddef>
#include <random>
#include <stdexcept>

#include "ff/fp12.hpp"
#include "ff/fr.hpp"
#include "random.hpp"

namespace cuzk::test {

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
