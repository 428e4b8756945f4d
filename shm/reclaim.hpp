// Crash reclamation under the one exclusive cleaner lock (DESIGN §3): a dead
// worker's ASSIGNED slot → FREE (gen + 1) and its partition back to QUEUED;
// FILLED stays FILLED; a dead server's PROVING slot → FILLED.
#pragma once

#include <cstdint>
#include <optional>

#include "shm/error.hpp"
#include "shm/region.hpp"

namespace cuzk::shm {

struct reclaim_report {
  std::uint64_t assigned_freed = 0;   // slots of dead workers
  std::uint64_t proving_refilled = 0; // slots of a dead server
  std::uint64_t partitions_requeued = 0;
  std::uint64_t leases_cleared = 0;   // entries marked active whose holder is dead
};

/* Reclaims every slot whose owner lease is dead (or only those of `owner`). */
result<reclaim_report> reclaim(const region& r, std::optional<std::uint32_t> owner = std::nullopt) noexcept;

}  // namespace cuzk::shm
