// What went wrong in the shared-memory layer. Every shm call is noexcept and
// returns result<T> (common/util/expected.hpp) carrying one of these.
#pragma once

#include <cstdint>
#include <string_view>

#include "util/expected.hpp"

namespace cuzk::shm {

enum class error : std::uint8_t {
  already_exists,     // create: a region (or its lock file) of that name exists
  not_found,          // open/destroy: no region of that name
  no_space,           // posix_fallocate failed: /dev/shm (or hugetlbfs) too small
  os_error,           // another system call failed (errno kept by the caller's log)
  being_created,      // open: the creator has not published the header yet
  bad_magic,          // open: not a cuzk region
  bad_version,        // open: another layout version
  bad_size,           // open: file size differs from the header's total size
  bad_layout_hash,    // open: slot classes differ from what the header promises
  bad_config,         // create: impossible slot classes, capacities or alignment
  leases_exhausted,   // take_lease: every lease entry is held by a live process
  server_running,     // take_lease(server): another live server holds the pool
  live_leases,        // destroy without force: some process still holds a lease
  no_such_slot,       // slot index out of range
  no_such_job,        // job index out of range / record not live
  stale_generation,   // (slot, generation) or (job, generation) no longer current
  wrong_state,        // the transition's from-state does not hold
  wrong_owner,        // the caller's lease does not own the slot
  job_table_full,     // no free job record and none evictable
  too_large,          // a payload, string or proof exceeds its field
  checksum_mismatch,  // a FILLED payload's checksum does not match its bytes
  srs_mismatch,       // SRS region: header, size or content hash differ
  access_denied,      // a shm file is a link, not the service's, or open to others
  not_regular_file,   // a key file is a FIFO, directory, device or link
  srs_abandoned,      // SRS region left half-written by a loader that died
};

constexpr std::string_view to_string(error e) noexcept {
  switch (e) {
    case error::already_exists:
      return "a region of that name already exists";
    case error::not_found:
      return "no region of that name";
    case error::no_space:
      return "not enough space for the region (is /dev/shm large enough?)";
    case error::os_error:
      return "a system call failed";
    case error::being_created:
      return "the region is still being created";
    case error::bad_magic:
      return "not a cuzk region (magic differs)";
    case error::bad_version:
      return "region layout version differs";
    case error::bad_size:
      return "region size differs from its header";
    case error::bad_layout_hash:
      return "slot layout hash differs from the header";
    case error::bad_config:
      return "invalid region configuration";
    case error::leases_exhausted:
      return "every lease entry is held by a live process";
    case error::server_running:
      return "another live server holds the pool";
    case error::live_leases:
      return "live processes still hold leases";
    case error::no_such_slot:
      return "no such slot";
    case error::no_such_job:
      return "no such job";
    case error::stale_generation:
      return "stale generation";
    case error::wrong_state:
      return "wrong state for this transition";
    case error::wrong_owner:
      return "the caller does not own this slot";
    case error::job_table_full:
      return "the job table is full";
    case error::too_large:
      return "value too large for its field";
    case error::checksum_mismatch:
      return "slot payload checksum mismatch";
    case error::srs_mismatch:
      return "SRS region does not match";
    case error::access_denied:
      return "the shared-memory file does not belong to the service";
    case error::not_regular_file:
      return "not a regular file";
    case error::srs_abandoned:
      return "the SRS region was left half-written by a loader that died";
  }
  return "unknown shm error";
}

template <class T>
using result = util::expected<T, error>;
using util::unexpected;

}  // namespace cuzk::shm
