// The service's shared-memory files (the pool, its lock file, SRS regions):
// created exclusively with the service's mode and group, opened never through
// a symbolic link and only after fstat shows that they belong to the service
// (DESIGN §9). Mapped with plain mmap.
#pragma once

#include <sys/stat.h>
#include <sys/types.h>

#include <cstddef>
#include <string>
#include <string_view>

#include "shm/error.hpp"

namespace cuzk::shm::detail {

/* Who may open a file: 0600, or 0660 with the given group. */
struct file_access {
  mode_t mode = 0600;
  gid_t group = static_cast<gid_t>(-1);  // -1: the creator's
};

/* 0600 for an empty name, else 0660 with that group; bad_config naming the
   group when no such group exists. */
result<file_access> access_for_group(const std::string& group, std::string* why) noexcept;
/* The access an existing file grants, to give another file the same. */
file_access access_of(const struct stat& st) noexcept;

/* fchown to the group (unless -1), then fchmod: the umask changes nothing. */
result<void> apply_access(int fd, const file_access& a, std::string_view what, const std::string& path,
                          std::string* why) noexcept;

/* O_RDWR|O_CREAT|O_EXCL|O_NOFOLLOW|O_CLOEXEC, then fchown to the group and
   fchmod (so the umask changes nothing). already_exists when the name is
   taken (a symbolic link included); on any later failure the file is removed. */
result<int> create_file(const std::string& path, const file_access& a, std::string_view what,
                        std::string* why) noexcept;

/* flags|O_NOFOLLOW|O_CLOEXEC, then check_owner. not_found when absent,
   access_denied for a symbolic link or a file that fails the check. `also`:
   a file whose owner (and group, when it grants group access) is trusted too. */
result<int> open_checked(const std::string& path, int flags, std::string_view what, std::string* why,
                         const struct stat* also = nullptr) noexcept;

/* A regular file, no access for others, owned by this process's euid or by
   root, or granting group access to one of this process's groups (or the
   owner or group of `also`). access_denied with a sentence naming the file,
   its owner, group and mode, and what was expected. */
result<void> check_owner(const struct stat& st, const std::string& path, std::string_view what, std::string* why,
                         const struct stat* also = nullptr) noexcept;

/* A shared mapping of a file's first `size` bytes; unmapped on destruction. */
class mapping {
 public:
  mapping() = default;
  static result<mapping> of(int fd, std::size_t size, bool writable, const std::string& path,
                            std::string* why) noexcept;
  mapping(mapping&& o) noexcept : p_(o.p_), n_(o.n_) { o.p_ = nullptr, o.n_ = 0; }
  mapping& operator=(mapping&& o) noexcept;
  ~mapping();

  void* data() const noexcept { return p_; }
  std::size_t size() const noexcept { return n_; }

 private:
  mapping(void* p, std::size_t n) noexcept : p_(p), n_(n) {}
  void* p_ = nullptr;
  std::size_t n_ = 0;
};

/* g is this process's effective group or one of its supplementary groups. */
bool in_my_groups(gid_t g);

/* Sets *why when asked for a reason. */
void say(std::string* why, const std::string& s);
/* A mode as four octal digits ("0640"). */
std::string octal(mode_t m);

}  // namespace cuzk::shm::detail
