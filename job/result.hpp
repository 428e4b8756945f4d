// One partition's result as the job table stores it (≤ shm::result_bytes):
//   u8 curve (curves::curve_id)
//   proof  A (G1) | B (G2) | C (G1) in snarkjs's LEM layout of that curve
//          (BLS12-381: 96 + 192 + 96 B; BN254: 64 + 128 + 64 B)
//   u32 n_public (LE), then n_public × 32 B canonical little-endian Fr
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "curves/dispatch.hpp"
#include "groth16/keys.hpp"

namespace cuzk::job {

template <class C>
struct basic_result {
  groth16::basic_proof<C> proof;
  std::vector<ff::fr<C>> public_signals;
};
using any_result = curves::all::variant<basic_result>;

/* The encoded size of a result of curve c with n_public public signals; the
   job table holds at most shm::result_bytes per partition. */
std::uint64_t result_bytes_for(curves::curve_id c, std::uint64_t n_public) noexcept;

template <class C>
std::vector<std::uint8_t> encode_result(const basic_result<C>& r);
/* job_error on a short, long or non-canonical encoding or an unknown curve. */
any_result decode_result(std::span<const std::uint8_t> bytes);

/* snarkjs's proof.json and public.json texts of a stored result */
struct result_json {
  std::string proof, public_signals;
};
result_json result_to_json(std::span<const std::uint8_t> bytes);

}  // namespace cuzk::job
