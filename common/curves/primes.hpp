// Which curve a prime written in a file belongs to: circom's .r1cs and .wtns
// carry the scalar field r, snarkjs's .zkey both r and the base field p, all
// little-endian in n8 bytes. This is how a curve id enters from a file.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "curves/bls12_381.hpp"
#include "curves/bn254.hpp"

namespace cuzk::curves {

namespace detail {
template <std::size_t N>
bool equals_le(std::span<const std::uint8_t> bytes, const std::array<std::uint64_t, N>& limbs) {
  if (bytes.size() != 8 * N) return false;
  for (std::size_t i = 0; i < bytes.size(); ++i)
    if (bytes[i] != std::uint8_t(limbs[i / 8] >> (8 * (i % 8)))) return false;
  return true;
}
}  // namespace detail

/* The curve whose scalar field r these n8 little-endian bytes are. */
inline std::optional<curve_id> curve_of_scalar_prime(std::span<const std::uint8_t> le) {
  if (detail::equals_le(le, bls12_381::fr_params::modulus)) return curve_id::bls12_381;
  if (detail::equals_le(le, bn254::fr_params::modulus)) return curve_id::bn254;
  return std::nullopt;
}
/* The curve whose base field p these n8 little-endian bytes are. */
inline std::optional<curve_id> curve_of_base_prime(std::span<const std::uint8_t> le) {
  if (detail::equals_le(le, bls12_381::fp_params::modulus)) return curve_id::bls12_381;
  if (detail::equals_le(le, bn254::fp_params::modulus)) return curve_id::bn254;
  return std::nullopt;
}

/* "BN254's scalar field r (snarkjs and circom: bn128)", or "an unknown prime" */
inline std::string describe_scalar_prime(std::span<const std::uint8_t> le) {
  auto c = curve_of_scalar_prime(le);
  if (!c) return "a prime of no curve cuzk knows (" + std::to_string(le.size()) + " bytes)";
  return std::string(display_name(*c)) + "'s scalar field r (snarkjs and circom: " + std::string(snarkjs_name(*c)) +
         ")";
}

}  // namespace cuzk::curves
