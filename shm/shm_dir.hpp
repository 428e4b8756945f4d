// The service's directory of shared-memory files (the pool, its lock file,
// its SRS regions): /dev/shm/cuzk, made by tmpfiles at boot or by the first
// cuzk-shm create. /dev/shm itself is writable by every user, so names there
// can be taken before the service uses them; inside a directory only the
// service may write, they cannot (DESIGN §9). Every process opens it without
// following links and checks who owns it before using a name in it.
#pragma once

#include <string>
#include <string_view>

#include "shm/error.hpp"
#include "shm/shm_file.hpp"

namespace cuzk::shm {

/* $CUZK_SHM_DIR when set (tests, a node that keeps it elsewhere), else /dev/shm/cuzk. */
std::string shm_dir();
/* shm_dir()/name. */
std::string shm_path(std::string_view name);

/* Opens shm_dir() with O_DIRECTORY|O_NOFOLLOW and checks it: a directory (not
   a link), owned by root or this process's euid, or by another user when it
   grants group access to one of this process's groups; never writable by
   others. not_found when absent; access_denied, with a sentence the operator
   can act on (who made it, what to do), when it fails the check or, with
   write, when this process may not create files in it. */
result<void> check_shm_dir(bool write, std::string* why = nullptr) noexcept;

/* check_shm_dir(write), creating the directory first when absent: mode 0750
   with the creator's group, or 0770 with a's group. */
result<void> make_shm_dir(const detail::file_access& a, std::string* why = nullptr) noexcept;

}  // namespace cuzk::shm
