#include "util/read_at.hpp"

#include <sys/types.h>
#include <unistd.h>

#include <cerrno>

namespace cuzk::util {

std::int64_t read_at(int fd, void* buf, std::size_t n, std::uint64_t off) noexcept {
  std::size_t got = 0;
  while (got < n) {
    const ssize_t r = ::pread(fd, static_cast<char*>(buf) + got, n - got, static_cast<off_t>(off + got));
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return -1;
    if (r == 0) break;
    got += static_cast<std::size_t>(r);
  }
  return static_cast<std::int64_t>(got);
}

}  // namespace cuzk::util
