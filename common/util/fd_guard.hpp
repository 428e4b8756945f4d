// A file descriptor closed when its owner goes out of scope.
#pragma once

#include <unistd.h>

#include <utility>

namespace cuzk::util {

struct fd_guard {
  int fd = -1;
  fd_guard() = default;
  explicit fd_guard(int f) noexcept : fd(f) {}
  fd_guard(const fd_guard&) = delete;
  fd_guard& operator=(const fd_guard&) = delete;
  ~fd_guard() {
    if (fd >= 0) ::close(fd);
  }
  /* The descriptor, no longer closed here. */
  int release() noexcept { return std::exchange(fd, -1); }
};

}  // namespace cuzk::util
