// Process leases: an entry in the lease table plus an fcntl open-file-
// description write lock on that entry's byte of the lock file. The OS drops
// the lock when the holder dies, so liveness is a lock test, never a pid test.
#pragma once

#include <cstdint>
#include <string_view>

#include "shm/error.hpp"
#include "shm/layout.hpp"
#include "shm/reclaim.hpp"
#include "shm/region.hpp"

namespace cuzk::shm {

class lease {
 public:
  /* Takes the first entry whose lock is free. Before publishing it, reclaims
     (under the cleaner lock) whatever a previous, dead holder of that entry
     owned. role::server additionally takes the exclusive server lock
     (server_running when another live server has it) and bumps the epoch. */
  static result<lease> take(const region& r, role who, std::string_view name) noexcept;

  lease(lease&&) noexcept;
  lease& operator=(lease&&) noexcept;
  ~lease();  // marks the entry free, then drops the lock

  std::uint32_t index() const noexcept { return index_; }
  std::uint64_t epoch() const noexcept { return epoch_; }
  /* Stores boot_ns() in the entry: is_hung measures from there. */
  void heartbeat() noexcept;
  std::uint64_t last_heartbeat_ns() const noexcept;
  /* Gives back what this lease owns as reclamation would after its death
     (ASSIGNED slots → FREE, gen + 1, their partitions requeued, under the
     cleaner lock) and marks the entry free; the lock stays held until the
     lease is destroyed. The caller must never write into those slots again. */
  result<reclaim_report> surrender() noexcept;

 private:
  lease(const region* r, std::uint32_t index, int fd, int server_fd, std::uint64_t epoch) noexcept;
  const region* r_ = nullptr;
  std::uint32_t index_ = no_lease;
  int fd_ = -1;
  int server_fd_ = -1;
  std::uint64_t epoch_ = 0;
};

/* The lease table (lease_capacity entries). */
lease_entry* lease_entries(const region& r) noexcept;

/* Whether some process holds entry i's lock (tested with F_OFD_GETLK on a
   separate descriptor, so it also sees locks this process holds). */
bool is_alive(const region& r, std::uint32_t index) noexcept;
/* Alive but its heartbeat is older than timeout_ns (boot_ns() clock). */
bool is_hung(const region& r, std::uint32_t index, std::uint64_t timeout_ns) noexcept;

/* Whether a live process holds the pool's server lock. */
bool server_alive(const region& r) noexcept;

/* /proc/PID/stat field 22, 0 when unreadable. */
std::uint64_t process_start_time(int pid) noexcept;
/* Two clocks. boot_ns (CLOCK_BOOTTIME: one clock for every process of the
   host, never set back, counts suspend) for heartbeats, hung detection and
   lease ages; wall_ns (CLOCK_REALTIME) for timestamps shown to people (job
   submitted/finished, synthesis and proving times, region creation). */
std::uint64_t boot_ns() noexcept;
std::uint64_t wall_ns() noexcept;
/* wall_ns(), for callers not yet naming their clock. */
std::uint64_t now_ns() noexcept;

}  // namespace cuzk::shm
