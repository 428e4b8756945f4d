#include "shm/lock_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

namespace cuzk::shm::detail {
namespace {

struct flock range(short type, std::uint64_t byte, std::uint64_t len) noexcept {
  struct flock fl {};
  fl.l_type = type;
  fl.l_whence = SEEK_SET;
  fl.l_start = static_cast<off_t>(byte);
  fl.l_len = static_cast<off_t>(len);
  fl.l_pid = 0;  // must be 0 for OFD locks
  return fl;
}

}  // namespace

int open_lock_file(const std::string& path, std::string* why) noexcept {
  auto fd = open_checked(path, O_RDWR, "lock file", why);
  if (fd) return *fd;
  errno = fd.error() == error::not_found ? ENOENT : fd.error() == error::access_denied ? EACCES : EIO;
  return -1;
}

int create_lock_file(const std::string& path, const file_access& a, std::string* why) noexcept {
  auto fd = create_file(path, a, "lock file", why);
  if (fd) return *fd;
  errno = fd.error() == error::already_exists ? EEXIST : fd.error() == error::access_denied ? EACCES : EIO;
  return -1;
}

void close_fd(int& fd) noexcept {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

bool try_lock(int fd, std::uint64_t byte, std::uint64_t len) noexcept {
  struct flock fl = range(F_WRLCK, byte, len);
  return ::fcntl(fd, F_OFD_SETLK, &fl) == 0;
}

bool lock_wait(int fd, std::uint64_t byte) noexcept {
  struct flock fl = range(F_WRLCK, byte, 1);
  int rc;
  do rc = ::fcntl(fd, F_OFD_SETLKW, &fl);
  while (rc != 0 && errno == EINTR);
  return rc == 0;
}

void unlock(int fd, std::uint64_t byte, std::uint64_t len) noexcept {
  struct flock fl = range(F_UNLCK, byte, len);
  ::fcntl(fd, F_OFD_SETLK, &fl);
}

std::int64_t first_locked(int fd, std::uint64_t from, std::uint64_t len) noexcept {
  struct flock fl = range(F_WRLCK, from, len);
  if (::fcntl(fd, F_OFD_GETLK, &fl) != 0) return -1;
  if (fl.l_type == F_UNLCK) return -1;
  return fl.l_start < static_cast<off_t>(from) ? static_cast<std::int64_t>(from) : fl.l_start;
}

}  // namespace cuzk::shm::detail
