// One partition's result as the job table stores it (≤ shm::result_bytes):
//   proof  A (G1, 96 B) | B (G2, 192 B) | C (G1, 96 B)   zcash uncompressed
//   u32 n_public (LE), then n_public × 32 B canonical little-endian Fr
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "groth16/keys.hpp"

namespace cuzk::job {

struct result {
  groth16::proof proof;
  std::vector<groth16::fr_t> public_signals;
};

/* The encoded size of a result with n_public public signals; the job table
   holds at most shm::result_bytes per partition. */
std::uint64_t result_bytes_for(std::uint64_t n_public) noexcept;

std::vector<std::uint8_t> encode_result(const result& r);
/* job_error on a short, long or non-canonical encoding. */
result decode_result(std::span<const std::uint8_t> bytes);

}  // namespace cuzk::job
