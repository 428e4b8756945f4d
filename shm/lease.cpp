#include "shm/lease.hpp"

#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#include "shm/failpoint.hpp"
#include "shm/lock_file.hpp"
#include "shm/reclaim.hpp"
#include "util/utf8.hpp"

namespace cuzk::shm {
namespace {

lease_entry* entries(const region& r) noexcept { return lease_entries(r); }

}  // namespace

namespace {

std::uint64_t clock_ns(clockid_t id) noexcept {
  timespec ts{};
  ::clock_gettime(id, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ULL + static_cast<std::uint64_t>(ts.tv_nsec);
}

}  // namespace

std::uint64_t boot_ns() noexcept { return clock_ns(CLOCK_BOOTTIME); }
std::uint64_t wall_ns() noexcept { return clock_ns(CLOCK_REALTIME); }
std::uint64_t now_ns() noexcept { return wall_ns(); }

std::uint64_t process_start_time(int pid) noexcept {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%d/stat", pid);
  int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  char buf[1024];
  ssize_t n = ::read(fd, buf, sizeof buf - 1);
  ::close(fd);
  if (n <= 0) return 0;
  buf[n] = '\0';
  // comm (field 2) may hold spaces and parentheses: fields resume after the last ')'.
  char* p = std::strrchr(buf, ')');
  if (!p) return 0;
  ++p;
  // Now at field 3 (state); field 22 is 19 fields further.
  for (int field = 3; field < 22; ++field) {
    while (*p == ' ') ++p;
    while (*p && *p != ' ') ++p;
    if (!*p) return 0;
  }
  while (*p == ' ') ++p;
  return std::strtoull(p, nullptr, 10);
}

result<lease> lease::take(const region& r, role who, std::string_view name) noexcept {
  const region_header& h = r.header();
  int fd = detail::open_lock_file(r.lock_path());
  if (fd < 0) return unexpected(error::os_error);
  int server_fd = -1;
  if (who == role::server) {
    server_fd = detail::open_lock_file(r.lock_path());
    if (server_fd < 0 || !detail::try_lock(server_fd, lock_byte_server)) {
      bool os = server_fd < 0;
      detail::close_fd(server_fd);
      detail::close_fd(fd);
      return unexpected(os ? error::os_error : error::server_running);
    }
  }
  for (std::uint32_t i = 0; i < h.lease_capacity; ++i) {
    if (!detail::try_lock(fd, lock_byte_lease0 + i)) continue;
    failpoint("lease.take.lock");
    lease_entry& e = entries(r)[i];
    // Whatever a previous holder of entry i left (it is dead: we hold its lock)
    // is reclaimed before the entry is published again. A server start also
    // reconciles the job and slot tables.
    auto rec = detail::reclaim_entry(r, i, who == role::server);
    if (!rec) {
      detail::close_fd(server_fd);
      detail::close_fd(fd);
      return unexpected(rec.error());
    }
    std::uint64_t epoch = who == role::server ? r.header().epoch.fetch_add(1, std::memory_order_acq_rel) + 1
                                              : r.header().epoch.load(std::memory_order_acquire);
    e.role = static_cast<std::uint32_t>(who);
    e.pid = static_cast<std::int32_t>(::getpid());
    e.start_time = process_start_time(e.pid);
    e.epoch = epoch;
    e.heartbeat_ns.store(boot_ns(), std::memory_order_relaxed);
    std::memset(e.name, 0, sizeof e.name);
    (void)util::copy_utf8(name, e.name, sizeof e.name - 1);
    failpoint("lease.take.fields");
    const auto old = lease_word::unpack(e.word.load(std::memory_order_relaxed));
    e.word.store(lease_word{true, old.incarnation + 1}.pack(), std::memory_order_release);
    failpoint("lease.take.publish");
    return lease(&r, i, fd, server_fd, epoch);
  }
  detail::close_fd(server_fd);
  detail::close_fd(fd);
  return unexpected(error::leases_exhausted);
}

lease::lease(const region* r, std::uint32_t index, int fd, int server_fd, std::uint64_t epoch) noexcept
    : r_(r), index_(index), fd_(fd), server_fd_(server_fd), epoch_(epoch) {}

lease::lease(lease&& o) noexcept : r_(o.r_), index_(o.index_), fd_(o.fd_), server_fd_(o.server_fd_), epoch_(o.epoch_) {
  o.r_ = nullptr;
  o.fd_ = o.server_fd_ = -1;
  o.index_ = no_lease;
}

lease& lease::operator=(lease&& o) noexcept {
  if (this != &o) {
    this->~lease();
    new (this) lease(std::move(o));
  }
  return *this;
}

lease::~lease() {
  if (r_ && index_ != no_lease) {
    lease_entry& e = entries(*r_)[index_];
    const auto w = lease_word::unpack(e.word.load(std::memory_order_relaxed));
    e.word.store(lease_word{false, w.incarnation}.pack(), std::memory_order_release);
  }
  detail::close_fd(fd_);  // drops the entry's lock
  detail::close_fd(server_fd_);
  r_ = nullptr;
}

void lease::heartbeat() noexcept {
  if (r_ && index_ != no_lease) entries(*r_)[index_].heartbeat_ns.store(boot_ns(), std::memory_order_release);
}

std::uint64_t lease::last_heartbeat_ns() const noexcept {
  return r_ && index_ != no_lease ? entries(*r_)[index_].heartbeat_ns.load(std::memory_order_acquire) : 0;
}

result<reclaim_report> lease::surrender() noexcept {
  if (!r_ || index_ == no_lease) return unexpected(error::wrong_owner);
  return detail::reclaim_entry(*r_, index_, false);
}

bool is_alive(const region& r, std::uint32_t index) noexcept {
  if (index >= r.header().lease_capacity) return false;
  return detail::first_locked(r.lock_fd(), lock_byte_lease0 + index) >= 0;
}

lease_entry* lease_entries(const region& r) noexcept { return r.at<lease_entry>(r.header().lease_offset); }

bool is_hung(const region& r, std::uint32_t index, std::uint64_t timeout_ns) noexcept {
  if (!is_alive(r, index)) return false;
  std::uint64_t hb = entries(r)[index].heartbeat_ns.load(std::memory_order_acquire), now = boot_ns();
  return now > hb && now - hb > timeout_ns;
}

bool server_alive(const region& r) noexcept { return detail::first_locked(r.lock_fd(), lock_byte_server) >= 0; }

}  // namespace cuzk::shm
