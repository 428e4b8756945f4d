// Scalar recodings for scalar multiplication: reduction mod r, the base-|x|
// split behind the endomorphism methods, and width-w NAF.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "ec/config.hpp"

namespace cuzk::ec {

/* k mod r for any 256-bit k: 2^256 < 3r on BLS12-381 (at most two
   subtractions), < 6r on BN254 (at most five). */
template <class C = curves::bls12_381>
inline scalar_limbs_t reduce_mod_r(scalar_limbs_t k) {
  const auto& r = C::fr_params::modulus;
  while (!ff::limbs::less(k, r)) ff::limbs::sub(k, k, r);
  return k;
}

/* BLS12-381: the base-|x| digits of k < r: k = d0 + d1 |x| + d2 |x|^2 + d3 |x|^3 with
   0 <= di < |x| < 2^64. Four digits suffice because r = x^4 - x^2 + 1 < |x|^4.
   Since x < 0, |x|^i = (-1)^i x^i, which is how G2 uses them (psi = [x]). */
inline std::array<std::uint64_t, 4> split_base_x(const scalar_limbs_t& k) {
  std::array<std::uint64_t, 4> d{};
  scalar_limbs_t q = k;
  for (auto& digit : d) {
    ff::limbs::u128 rem = 0;
    for (std::size_t i = 4; i-- > 0;) {  // q, rem = divmod(q, |x|)
      ff::limbs::u128 cur = (rem << 64) | q[i];
      q[i] = (std::uint64_t)(cur / consts::x_abs);
      rem = cur % consts::x_abs;
    }
    digit = (std::uint64_t)rem;
  }
  return d;
}

/* Width-w NAF of k (2 <= w <= 7): k = sum_i out[i] 2^i with every nonzero
   digit odd, |digit| < 2^(w-1), and at most one nonzero in any w consecutive
   digits. out needs 64 N + 1 entries; returns the number of digits used. */
template <std::size_t N>
std::size_t wnaf(const ff::limbs::big<N>& k, unsigned w, std::int8_t* out) {
  ff::limbs::big<N + 1> t{};
  for (std::size_t i = 0; i < N; ++i) t[i] = k[i];
  const std::int64_t full = std::int64_t(1) << w, half = full >> 1;
  std::size_t len = 0;
  while (!ff::limbs::is_zero(t)) {
    std::int8_t d = 0;
    if (t[0] & 1) {
      std::int64_t m = std::int64_t(t[0] & std::uint64_t(full - 1)); /* k mod 2^w */
      if (m >= half) m -= full;                                      /* centered in (-2^(w-1), 2^(w-1)) */
      d = std::int8_t(m);
      ff::limbs::big<N + 1> md{};
      if (m > 0) {
        md[0] = std::uint64_t(m);
        ff::limbs::sub(t, t, md); /* k -= d */
      } else {
        md[0] = std::uint64_t(-m);
        ff::limbs::add(t, t, md); /* k -= d, d < 0 */
      }
    }
    out[len++] = d;
    ff::limbs::shr1(t);
  }
  return len;
}

inline std::size_t wnaf(std::uint64_t k, unsigned w, std::int8_t* out) { return wnaf(ff::limbs::big<1>{k}, w, out); }

}  // namespace cuzk::ec
