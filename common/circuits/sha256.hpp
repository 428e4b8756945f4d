// Native SHA-256 (FIPS 180-4), the reference the circuit is checked against.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace cuzk::circuits {

/* FIPS 180-4 §4.2.2: the first 32 bits of the fractional parts of the cube
   roots of the first 64 primes. */
extern const std::array<std::uint32_t, 64> sha256_k;
/* FIPS 180-4 §5.3.3: the first 32 bits of the fractional parts of the square
   roots of the first 8 primes. */
extern const std::array<std::uint32_t, 8> sha256_h0;

/* One application of the compression function (§6.2.2) to a 16-word block. */
void sha256_compress(std::array<std::uint32_t, 8>& state, const std::array<std::uint32_t, 16>& block);

/* The message followed by 0x80, zeros, and its bit length as 64 bits
   big-endian, to a multiple of 64 bytes (§5.1.1). */
std::vector<std::uint8_t> sha256_pad(std::span<const std::uint8_t> message);

std::array<std::uint8_t, 32> sha256(std::span<const std::uint8_t> message);

}  // namespace cuzk::circuits
