// snarkjs's Groth16 proving key file, .zkey version 1 (snarkjs
// src/zkey_utils.js, zkey_new.js), on BLS12-381 (n8q = 48) or BN254 (n8q = 32):
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
// snarkjs cannot prove with, and section 101 {u32 1} to a native circuit's
// key (cuzk setup --circuit): cuzk never reads its coefficients (the circuit
// synthesizes a, b, c itself), so the server releases them from the key's
// SRS region; snarkjs ignores both sections.
#pragma once

#include <array>
#include <filesystem>
#include <span>
#include <vector>

#include "groth16/keys.hpp"
#include "r1cs/input_file.hpp"

namespace cuzk::io {

/* Whose key it is, from the primes in section 2 (format_error for a
   container or header that names no curve cuzk knows). */
curves::curve_id zkey_curve(const r1cs::byte_source& src);
curves::curve_id zkey_curve(std::span<const std::uint8_t> bytes);
curves::curve_id zkey_curve_file(const std::filesystem::path& path);

/* A key's shape from its headers alone (sections 1, 2 and 100, and the
   point sections' sizes checked against the counts; no point is decoded):
   what sizing a node needs, cheap at any key size. format_error as below. */
struct zkey_shape {
  curves::curve_id curve = curves::curve_id::bls12_381;
  std::uint32_t n_vars = 0, n_public = 0, domain_size = 0;
  groth16::h_form h = groth16::h_form::odd_coset;
  std::uint64_t n_coefs = 0;       // section 4's records
  std::uint64_t coefs_offset = 0;  // the first record's offset in the file
  bool native = false;             // section 101
  std::uint64_t bytes = 0;         // the whole file
  /* the point sections A, B1, B2, C, H (5 .. 9): offset and bytes each */
  std::array<std::pair<std::uint64_t, std::uint64_t>, 5> points{};
};
zkey_shape read_zkey_shape(const r1cs::byte_source& src);
zkey_shape read_zkey_shape(std::span<const std::uint8_t> bytes);
zkey_shape read_zkey_shape_file(const std::filesystem::path& path);

/* Validates every header field, size and point (on the curve; the
   verifying-key points also in the subgroup). format_error names the
   section on the first problem, and both curves for a key of another curve
   than C. */
template <class C = curves::bls12_381>
groth16::basic_proving_key<C> read_zkey(const r1cs::byte_source& src);
template <class C = curves::bls12_381>
groth16::basic_proving_key<C> read_zkey(std::span<const std::uint8_t> bytes);
/* The same, and pk.mapped points into `bytes`, which `owner` keeps mapped.
   decode_points = false: the five point sections and the coefficients are
   only checked for size and left in the mapping (a, b1, b2, c, h_query and
   coefs stay empty; pk.mapped.coefs holds the records): a GPU uploads the
   points as they are, a synthesis worker never needs them, and the
   coefficients are read (and checked) only by a circom job's evaluation. At
   2^27 constraints the coefficients alone are ≈ 19 GB per process. */
template <class C = curves::bls12_381>
groth16::basic_proving_key<C> read_zkey_mapped(std::span<const std::uint8_t> bytes, std::shared_ptr<const void> owner,
                                               bool decode_points = true);
/* Read a bounded chunk at a time (a regular file only; see r1cs/input_file.hpp). */
template <class C = curves::bls12_381>
groth16::basic_proving_key<C> read_zkey_file(const std::filesystem::path& path);

/* For a proof on the CPU from a key read once (cuzk prove): the headers, the
   verifying key and every section's size checked as read_zkey checks them,
   then the file mapped read-only (pk.mapped): the coefficients and the five
   point sections are used where they lie, not decoded nor checked point by
   point. The CPU engine reads the points in place (ec::packed_affine),
   evaluate_from_coefs checks each coefficient where it uses it, and the
   proof's verification catches a point off its curve. A mapping is what
   makes it fast (no copy, no new memory), and what makes a file truncated
   while it proves end the process with SIGBUS (see r1cs/input_file.hpp):
   a command's risk, not the service's, which never maps a key's file. */
template <class C = curves::bls12_381>
groth16::basic_proving_key<C> read_zkey_file_raw(const std::filesystem::path& path);

/* The verifying key alone, checked as read_zkey checks it: the header sections and the IC (a few kB at any
   key size); the coefficients and the point sections are not read. */
template <class C = curves::bls12_381>
groth16::basic_verifying_key<C> read_zkey_vk(const r1cs::byte_source& src);
template <class C = curves::bls12_381>
groth16::basic_verifying_key<C> read_zkey_vk_file(const std::filesystem::path& path);

template <class C>
std::vector<std::uint8_t> write_zkey(const groth16::basic_proving_key<C>& pk);
template <class C>
void write_zkey_file(const std::filesystem::path& path, const groth16::basic_proving_key<C>& pk);

}  // namespace cuzk::io
