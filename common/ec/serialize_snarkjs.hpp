// The point layouts of snarkjs files, as ffjavascript (wasm_curve.js) and
// wasmcurves (build_curve_jacobian_a0.js) define them for bls12381 and bn128.
//
// LEM, ffjavascript's in-memory affine form: every coordinate as its
// Montgomery limbs (R = 2^384 on BLS12-381, 2^256 on BN254), little-endian,
// n8q = 48 or 32 bytes; G1 = x || y (96 or 64 B), G2 = x.c0 || x.c1 || y.c0
// || y.c1 (192 or 128 B); infinity is all zero bytes
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
#include "ec/field_bytes.hpp"

namespace cuzk::ec::snarkjs {

/* F: a G1 (Fp) or G2 (Fp2) coordinate field of either curve */
template <class F>
inline constexpr std::size_t point_size = 2 * bytes::field_layout<F>::size;  // LEM and U alike

template <class F>
std::array<std::uint8_t, point_size<F>> encode_lem(const affine_point<F>& p);
template <class F>
decode_result<affine_point<F>> decode_lem(std::span<const std::uint8_t> in, point_check check = point_check::on_curve);
template <class F>
std::array<std::uint8_t, point_size<F>> encode_u(const affine_point<F>& p);
template <class F>
decode_result<affine_point<F>> decode_u(std::span<const std::uint8_t> in, point_check check = point_check::on_curve);

/* BLS12-381's names */
inline constexpr std::size_t g1_size = point_size<fp_t>;   // 96
inline constexpr std::size_t g2_size = point_size<fp2_t>;  // 192

inline std::array<std::uint8_t, g1_size> encode_g1_lem(const g1_affine_t& p) { return encode_lem(p); }
inline std::array<std::uint8_t, g2_size> encode_g2_lem(const g2_affine_t& p) { return encode_lem(p); }
inline decode_result<g1_affine_t> decode_g1_lem(std::span<const std::uint8_t> in,
                                                point_check check = point_check::on_curve) {
  return decode_lem<fp_t>(in, check);
}
inline decode_result<g2_affine_t> decode_g2_lem(std::span<const std::uint8_t> in,
                                                point_check check = point_check::on_curve) {
  return decode_lem<fp2_t>(in, check);
}
inline std::array<std::uint8_t, g1_size> encode_g1_u(const g1_affine_t& p) { return encode_u(p); }
inline std::array<std::uint8_t, g2_size> encode_g2_u(const g2_affine_t& p) { return encode_u(p); }
inline decode_result<g1_affine_t> decode_g1_u(std::span<const std::uint8_t> in,
                                              point_check check = point_check::on_curve) {
  return decode_u<fp_t>(in, check);
}
inline decode_result<g2_affine_t> decode_g2_u(std::span<const std::uint8_t> in,
                                              point_check check = point_check::on_curve) {
  return decode_u<fp2_t>(in, check);
}

}  // namespace cuzk::ec::snarkjs
