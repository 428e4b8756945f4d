// A whole pool in one child process for the crash tests: the server's and a
// worker's steps (submit, dispatch, synthesize into the slot, prove, store,
// release) over a small region, with payloads and proofs that are pure
// functions of (job id, partition) so the parent can check every byte.
// Runs only in forked children: no gtest, results as exit codes.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "shm/region.hpp"

namespace cuzk::test::crash {

inline constexpr std::uint32_t partitions = 2;
inline constexpr std::uint64_t witness = 32;
inline constexpr std::size_t proof_bytes = 48;

/* Child exit codes. */
enum exit_code : int {
  ok = 0,
  open_failed = 20,
  lease_failed = 21,
  checksum_failed = 22,
  payload_differs = 23,
  unexpected_error = 24,
};

/* Rows of a, b, c for a partition (fits a 256-element slot). */
std::uint64_t rows(const std::string& job, std::uint32_t part);
/* Fills the four vectors with the partition's bytes. */
void write_payload(const std::string& job, std::uint32_t part, std::span<std::uint8_t> a, std::span<std::uint8_t> b,
                   std::span<std::uint8_t> c, std::span<std::uint8_t> z);
bool payload_matches(const std::string& job, std::uint32_t part, std::span<const std::uint8_t> a,
                     std::span<const std::uint8_t> b, std::span<const std::uint8_t> c, std::span<const std::uint8_t> z);
std::vector<std::uint8_t> proof(const std::string& job, std::uint32_t part);
/* Jobs whose id ends in "-bad" fail on partition 1 (the worker gives it up). */
bool is_bad(const std::string& job);

/* Opens the region, takes a server and a worker lease, submits `submit`, then
   runs rounds until nothing moves. Returns an exit code. */
int run_pool(const shm::region_location& where, const std::vector<std::string>& submit);

}  // namespace cuzk::test::crash
