// The point layouts of snarkjs files, as ffjavascript (wasm_curve.js) and
// wasmcurves (build_curve_jacobian_a0.js) define them for bls12381.
//
// LEM, ffjavascript's in-memory affine form: every coordinate as its
// Montgomery limbs (R = 2^384), little-endian, 48 bytes; G1 = x || y (96 B),
// G2 = x.c0 || x.c1 || y.c0 || y.c1 (192 B); infinity is all zero bytes
// (g1m_isZeroAffine: x = 0 and y = 0). snarkjs stores every point of a .zkey
// this way (zkey_utils.js readG1/readG2 = curve.G1/G2.fromRprLEM, a plain
// copy), and .ptau files too. These are the same limbs as fp_t's.
//
// U, ffjavascript's "uncompressed" form (LEMtoU / UtoLEM): coordinates
// canonical big-endian, Fp2 as c1 || c0 (the zcash uncompressed layout without
// flags); infinity is written as all zeros, and read back from all zeros or a
// set 0x40 bit. snarkjs uses it for bellman MPC params (zkey_export_bellman.js,
// zkey_import_bellman.js), .ptau challenge/response files
// (powersoftau_utils.js) and contribution hashes.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "ec/config.hpp"
#include "ec/decode_error.hpp"

namespace cuzk::ec::snarkjs {

inline constexpr std::size_t g1_size = 96;   // LEM and U alike
inline constexpr std::size_t g2_size = 192;

std::array<std::uint8_t, g1_size> encode_g1_lem(const g1_affine_t& p);
std::array<std::uint8_t, g2_size> encode_g2_lem(const g2_affine_t& p);
decode_result<g1_affine_t> decode_g1_lem(std::span<const std::uint8_t> in, point_check check = point_check::on_curve);
decode_result<g2_affine_t> decode_g2_lem(std::span<const std::uint8_t> in, point_check check = point_check::on_curve);

std::array<std::uint8_t, g1_size> encode_g1_u(const g1_affine_t& p);
std::array<std::uint8_t, g2_size> encode_g2_u(const g2_affine_t& p);
decode_result<g1_affine_t> decode_g1_u(std::span<const std::uint8_t> in, point_check check = point_check::on_curve);
decode_result<g2_affine_t> decode_g2_u(std::span<const std::uint8_t> in, point_check check = point_check::on_curve);

}  // namespace cuzk::ec::snarkjs
