// snarkjs's Groth16 proving key file, .zkey version 1 (snarkjs
// src/zkey_utils.js, zkey_new.js), on BLS12-381:
//   1 header        u32 protocol (1 = Groth16)
//   2 groth header  n8q, q, n8r, r, nVars, nPublic, domainSize,
//                   α1, β1, β2, γ2, δ1, δ2
//   3 IC            nPublic + 1 G1
//   4 coefficients  u32 count, then {u32 matrix, u32 row, u32 signal, Fr}
//                   (Fr stored as v R^2 mod r, "Montgomery of Montgomery")
//   5 A, 6 B1       nVars G1 each;  7 B2  nVars G2
//   8 C             nVars − nPublic − 1 G1;  9 H  domainSize G1
//   10 contributions (MPC transcript; kept opaque)
// Points in ffjavascript's LEM layout (ec/serialize_snarkjs.hpp).
// cuzk adds section 100 {u32 h_form} only for coefficient-form keys, which
// snarkjs cannot prove with; snarkjs ignores the section.
#pragma once

#include <filesystem>
#include <span>
#include <vector>

#include "groth16/keys.hpp"
#include "r1cs/input_file.hpp"

namespace cuzk::io {

/* Validates every header field, size and point (on the curve; the
   verifying-key points also in the subgroup). format_error names the
   section on the first problem. */
groth16::proving_key read_zkey(const r1cs::byte_source& src);
groth16::proving_key read_zkey(std::span<const std::uint8_t> bytes);
/* The same, and pk.mapped points into `bytes`, which `owner` keeps mapped.
   decode_points = false: the five point sections are only checked for size
   and left in the mapping (a, b1, b2, c, h_query stay empty): a GPU uploads
   them as they are, and a synthesis worker never needs them. */
groth16::proving_key read_zkey_mapped(std::span<const std::uint8_t> bytes, std::shared_ptr<const void> owner,
                                      bool decode_points = true);
/* Read a bounded chunk at a time (a regular file only; see r1cs/input_file.hpp). */
groth16::proving_key read_zkey_file(const std::filesystem::path& path);

std::vector<std::uint8_t> write_zkey(const groth16::proving_key& pk);
void write_zkey_file(const std::filesystem::path& path, const groth16::proving_key& pk);

}  // namespace cuzk::io
