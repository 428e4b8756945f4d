// Open-file-description locks on the pool's lock file (Linux F_OFD_SETLK /
// F_OFD_GETLK, fcntl(2)). Unlike classic POSIX record locks they belong to the
// open file description, not the process: closing some other descriptor of
// the same file does not drop them, and a test from another descriptor of the
// same process sees them. The kernel drops them when the last descriptor of
// that description closes, i.e. when the holder dies.
#pragma once

#include <cstdint>
#include <string>

#include "shm/shm_file.hpp"

namespace cuzk::shm::detail {

/* O_RDWR | O_NOFOLLOW | O_CLOEXEC, refused unless it belongs to the service
   (check_owner, shm_file.hpp): -1 with errno set (EACCES for a link or a file
   that fails the check; `why` says which). */
int open_lock_file(const std::string& path, std::string* why = nullptr) noexcept;
/* O_CREAT | O_EXCL | O_NOFOLLOW with the pool's mode and group; -1 with errno
   set (EEXIST when the name is taken). */
int create_lock_file(const std::string& path, const file_access& a, std::string* why = nullptr) noexcept;
void close_fd(int& fd) noexcept;

/* Write lock on [byte, byte + len): true when taken, false when someone else
   holds a conflicting lock (or on error). */
bool try_lock(int fd, std::uint64_t byte, std::uint64_t len = 1) noexcept;
/* Blocks until the write lock is taken (EINTR retried). */
bool lock_wait(int fd, std::uint64_t byte) noexcept;
void unlock(int fd, std::uint64_t byte, std::uint64_t len = 1) noexcept;
/* The first byte in [from, from + len) locked through another open file
   description, or -1 when none (or on error). */
std::int64_t first_locked(int fd, std::uint64_t from, std::uint64_t len = 1) noexcept;

}  // namespace cuzk::shm::detail
