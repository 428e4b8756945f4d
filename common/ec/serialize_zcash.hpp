// The zcash / IETF encodings of G1 and G2 points (zkcrypto bls12_381
// "Serialization", draft-irtf-cfrg-pairing-friendly-curves-11 App. C):
// x (and y) canonical big-endian, Fp2 as c1 || c0; the three top bits of the
// first byte are flags: 0x80 compressed, 0x40 infinity, 0x20 sign (y is the
// lexicographically larger root; compressed only). Infinity is the flags
// followed by zeros.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "ec/config.hpp"
#include "ec/decode_error.hpp"

namespace cuzk::ec::zcash {

inline constexpr std::size_t g1_compressed_size = 48;
inline constexpr std::size_t g1_uncompressed_size = 96;
inline constexpr std::size_t g2_compressed_size = 96;
inline constexpr std::size_t g2_uncompressed_size = 192;

inline constexpr std::uint8_t flag_compressed = 0x80;
inline constexpr std::uint8_t flag_infinity = 0x40;
inline constexpr std::uint8_t flag_sign = 0x20;

std::array<std::uint8_t, g1_compressed_size> encode_g1_compressed(const g1_affine_t& p);
std::array<std::uint8_t, g1_uncompressed_size> encode_g1_uncompressed(const g1_affine_t& p);
std::array<std::uint8_t, g2_compressed_size> encode_g2_compressed(const g2_affine_t& p);
std::array<std::uint8_t, g2_uncompressed_size> encode_g2_uncompressed(const g2_affine_t& p);

/* A compressed point is always on the curve (y comes from a square root);
   point_check::subgroup adds the subgroup check. */
decode_result<g1_affine_t> decode_g1_compressed(std::span<const std::uint8_t> in,
                                                point_check check = point_check::subgroup);
decode_result<g1_affine_t> decode_g1_uncompressed(std::span<const std::uint8_t> in,
                                                  point_check check = point_check::subgroup);
decode_result<g2_affine_t> decode_g2_compressed(std::span<const std::uint8_t> in,
                                                point_check check = point_check::subgroup);
decode_result<g2_affine_t> decode_g2_uncompressed(std::span<const std::uint8_t> in,
                                                  point_check check = point_check::subgroup);

/* Either form, chosen by length (48/96 for G1, 96/192 for G2). */
decode_result<g1_affine_t> decode_g1(std::span<const std::uint8_t> in, point_check check = point_check::subgroup);
decode_result<g2_affine_t> decode_g2(std::span<const std::uint8_t> in, point_check check = point_check::subgroup);

}  // namespace cuzk::ec::zcash
