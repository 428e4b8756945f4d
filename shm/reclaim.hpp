// Crash reclamation under the one exclusive cleaner lock (DESIGN §3): a dead
// worker's ASSIGNED slot → FREE (gen + 1), after its partition went back to
// QUEUED (or, already failed or done, its job was completed);
// FILLED stays FILLED; a dead server's PROVING slot → FILLED. Then, when no
// other server can be writing (none alive, or the caller is the server), the
// job table is reconciled with the slot table, which the server writes in two
// steps (job.mark_slotted then slot.assign; store_result then slot.release)
// that a crash can separate:
//   - a SLOTTED partition whose slot is not non-FREE and bound to it → QUEUED;
//   - a non-FREE slot bound to a QUEUED partition of an ACTIVE job → SLOTTED;
//   - a FILLED slot whose partition is finished (or slotted elsewhere), or
//     whose job is gone, finished or regenerated → FREE (gen + 1) (discard);
//   - an ACTIVE job whose partitions are all finished → DONE / FAILED;
//   - a RESERVED job record (its writer died mid-submit) → FREE.
#pragma once

#include <cstdint>
#include <optional>

#include "shm/error.hpp"
#include "shm/region.hpp"

namespace cuzk::shm {

struct reclaim_report {
  std::uint64_t assigned_freed = 0;    // slots of dead workers
  std::uint64_t proving_refilled = 0;  // slots of a dead server
  std::uint64_t partitions_requeued = 0;
  std::uint64_t leases_cleared = 0;  // entries marked active whose holder is dead
  // reconcile step
  std::uint64_t partitions_slotted = 0;  // QUEUED partitions re-bound to their non-FREE slot
  std::uint64_t filled_discarded = 0;    // FILLED slots nobody needs any more → FREE
  std::uint64_t jobs_completed = 0;      // ACTIVE jobs with every partition finished → DONE/FAILED
  std::uint64_t records_released = 0;    // RESERVED records of a dead writer → FREE
  bool reconciled = false;               // whether the reconcile step ran
};

struct reclaim_options {
  std::optional<std::uint32_t> owner;  // only this (dead) lease's slots; no reconcile
  /* The caller is the live server, calling from the thread that writes the
     job table (so none of its two-step writes is in flight): reconcile even
     though the server lock is held. */
  bool as_server = false;
};

/* Reclaims every slot whose owner lease is dead (or only those of `owner`);
   reconciles when no owner is given and no live server holds the pool. */
result<reclaim_report> reclaim(const region& r, std::optional<std::uint32_t> owner = std::nullopt) noexcept;
result<reclaim_report> reclaim(const region& r, const reclaim_options& opt) noexcept;

namespace detail {
/* lease::take: the caller has just locked entry `index`, so whatever that
   entry owns belongs to a dead holder. A server (as_server) also reclaims
   every dead owner and reconciles. */
result<reclaim_report> reclaim_entry(const region& r, std::uint32_t index, bool as_server) noexcept;
}  // namespace detail

}  // namespace cuzk::shm
