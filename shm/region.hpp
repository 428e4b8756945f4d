// A pool region: one POSIX shared-memory object (or a file on hugetlbfs) and
// the lock file beside it. Created only by cuzk-shm (region::create); every
// other process opens and validates it and never recreates or unlinks it.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "shm/error.hpp"
#include "shm/layout.hpp"

namespace cuzk::shm {

/* "4x65536" = 4 slots for up to 65536 constraints (domain = next power of
   two, padded), witness capacity = domain unless given ("4x65536:w=70000"). */
struct slot_class_config {
  std::uint64_t count = 0;
  std::uint64_t max_constraints = 0;
  std::uint64_t witness = 0;  // 0: same as the domain
};
result<slot_class_config> parse_slot_class(std::string_view text) noexcept;

/* Builder with named parameters: region_config{}.with_name("pool").with_slots({4, 65536}). */
struct region_config {
  std::string name;  // shm object name (no '/'), e.g. "cuzk"
  std::vector<slot_class_config> classes;
  std::uint32_t lease_capacity = 64;
  std::uint64_t job_capacity = 256;
  std::string hugepage_dir;    // non-empty: the region is hugepage_dir/name on hugetlbfs
  unsigned touch_threads = 0;  // pre-touch threads, 0 = all cores
  std::string group;           // non-empty: mode 0660 with this group, else 0600

  region_config& with_name(std::string n) {
    name = std::move(n);
    return *this;
  }
  region_config& with_slots(slot_class_config c) {
    classes.push_back(c);
    return *this;
  }
  region_config& with_leases(std::uint32_t n) {
    lease_capacity = n;
    return *this;
  }
  region_config& with_jobs(std::uint64_t n) {
    job_capacity = n;
    return *this;
  }
  region_config& with_hugepages(std::string dir) {
    hugepage_dir = std::move(dir);
    return *this;
  }
  region_config& with_touch_threads(unsigned n) {
    touch_threads = n;
    return *this;
  }
  region_config& with_group(std::string g) {
    group = std::move(g);
    return *this;
  }
};

/* Where a region lives: its name, and the directory of its file when not in
   the service's directory (shm_dir.hpp). The lock file is always there, NAME.lock. */
struct region_location {
  std::string name;
  std::string hugepage_dir;  // empty: shm_dir()
};

class region {
 public:
  /* Makes the service's directory when absent (make_shm_dir) and refuses one
     that fails its checks (access_denied, `why` says who made it).
     posix_fallocate (no_space on a full /dev/shm, never SIGBUS later), parallel
     pre-touch, header published last. The region and its lock file are made
     with O_EXCL|O_NOFOLLOW, mode 0600 (0660 and cfg.group's gid with a group;
     bad_config when no such group). Fails with already_exists when the name
     is taken, whatever its layout (a symbolic link included); `why` gets a
     sentence for the operator. */
  static result<region> create(const region_config& cfg, std::string* why = nullptr) noexcept;
  /* Refuses (access_denied) a region or lock file that is a symbolic link,
     not a regular file, open to others, or neither this user's nor root's nor
     group-accessible to one of this process's groups. Validates magic,
     version, size and layout hash; `why` names the field that differs and
     both values. */
  static result<region> open(const region_location& where, std::string* why = nullptr) noexcept;
  /* Unlinks region and lock file; refuses with live_leases while any lease is
     held by a live process, unless force. */
  static result<void> destroy(const region_location& where, bool force, std::string* why = nullptr) noexcept;

  region(region&&) noexcept;
  region& operator=(region&&) noexcept;
  ~region();

  region_header& header() const noexcept;
  std::uint8_t* base() const noexcept;
  std::uint64_t size() const noexcept;
  const region_location& location() const noexcept;
  /* The lock file, opened once per region object (leases open their own). */
  const std::string& lock_path() const noexcept;
  /* That descriptor: tests other processes' locks (F_OFD_GETLK); never holds one. */
  int lock_fd() const noexcept;
  /* Faults every page in from `threads` threads (0: all cores); the creator
     does this, a server may do it again before registering the payloads. */
  result<void> prefault(unsigned threads) const noexcept;

  template <class T>
  T* at(std::uint64_t offset) const noexcept {
    return reinterpret_cast<T*>(base() + offset);
  }

  /* The payload bytes a CUDA server registers, split at slot boundaries into
     chunks of at most max_chunk bytes. */
  std::vector<std::span<std::uint8_t>> payload_chunks(std::uint64_t max_chunk) const noexcept;

 private:
  struct impl;
  explicit region(impl*) noexcept;
  impl* p_ = nullptr;
};

}  // namespace cuzk::shm
