// A proof's phase timings as its job record keeps them and status sends them: one type from the prover
// (prove_timings::reported, engine.hpp) through the job table (shm::partition_timings) to the protocol
// (PartitionTimings, mapped in common/proto/wire_map.cpp) and the CLI.
// A new phase is one line in `timing` and its name in timing_names, at the end, and a field <name>_us numbered
// index + 1 in cuzk.proto's PartitionTimings (the job table's record grows with it: a new shm::layout_version).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace cuzk::groth16 {

/* cpu_prep: the host work around the kernels (splitting z, assembling the proof); verify: the server's
   self-check; total: the prove call (verify not included). */
enum class timing : std::uint8_t {
  h2d,
  ntt,
  msm_h,
  msm_l,
  msm_a,
  msm_b_g1,
  msm_b_g2,
  batch_add,
  cpu_prep,
  verify,
  total
};
inline constexpr std::array<std::string_view, 11> timing_names{
    "h2d", "ntt", "msm_h", "msm_l", "msm_a", "msm_b_g1", "msm_b_g2", "batch_add", "cpu_prep", "verify", "total"};
inline constexpr std::size_t n_timings = timing_names.size();
static_assert(static_cast<std::size_t>(timing::total) + 1 == n_timings, "a name for every timing");

constexpr std::string_view name(timing t) noexcept { return timing_names[static_cast<std::size_t>(t)]; }

/* Microseconds per phase (0: it did not run or was not measured). */
struct phase_timings {
  std::array<std::uint64_t, n_timings> us{};

  constexpr std::uint64_t& operator[](timing t) noexcept { return us[static_cast<std::size_t>(t)]; }
  constexpr std::uint64_t operator[](timing t) const noexcept { return us[static_cast<std::size_t>(t)]; }
  friend bool operator==(const phase_timings&, const phase_timings&) = default;
};

}  // namespace cuzk::groth16
