#include "shm/shm_dir.hpp"
#include "shm/shm_file.hpp"

#include <fcntl.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace cuzk::shm {
namespace {

using detail::in_my_groups;
using detail::octal;
using detail::say;

/* "uid 65534 (nobody)" */
std::string user(uid_t uid) {
  std::string s = "uid " + std::to_string(uid);
  std::vector<char> buf(16384);
  struct passwd pw {};
  struct passwd* found = nullptr;
  if (::getpwuid_r(uid, &pw, buf.data(), buf.size(), &found) == 0 && found) s += " (" + std::string(pw.pw_name) + ")";
  return s;
}

std::string owner_and_mode(const struct stat& st) {
  return "owned by " + user(st.st_uid) + " gid " + std::to_string(st.st_gid) + " with mode " + octal(st.st_mode);
}

/* The permission bits (rwx, 0..7) that apply to this process. */
unsigned my_bits(const struct stat& st) {
  if (::geteuid() == 0) return 7;
  if (st.st_uid == ::geteuid()) return (st.st_mode >> 6) & 7;
  if (in_my_groups(st.st_gid)) return (st.st_mode >> 3) & 7;
  return st.st_mode & 7;
}

const std::string again = "; remove it and run cuzk-shm create again";

result<void> check(const struct stat& st, const std::string& path, bool write, std::string* why) {
  if (S_ISLNK(st.st_mode)) {
    say(why, path + " is a symbolic link made by " + user(st.st_uid) +
                 ", not the service's directory: links are never followed (someone put it there to take the "
                 "service's names)" +
                 again);
    return unexpected(error::access_denied);
  }
  if (!S_ISDIR(st.st_mode)) {
    say(why, path + " is not a directory (" + owner_and_mode(st) +
                 "); the service keeps its pool and keys in a "
                 "directory of that name" +
                 again);
    return unexpected(error::access_denied);
  }
  const uid_t me = ::geteuid();
  const bool trusted = st.st_uid == me || st.st_uid == 0 || ((st.st_mode & 070) && in_my_groups(st.st_gid));
  if (!trusted) {
    say(why, path + " belongs to " + user(st.st_uid) + ", neither this process's user (" + user(me) +
                 ") nor root: unless that is the service's user (then run this as it), another user created it to "
                 "take the service's names" +
                 again);
    return unexpected(error::access_denied);
  }
  if (st.st_mode & 002) {
    say(why, path + " is " + owner_and_mode(st) +
                 ", which lets every user create names in it; expected 0750, "
                 "or 0770 for the service group (chmod 0750 " +
                 path + ")");
    return unexpected(error::access_denied);
  }
  const unsigned need = write ? 3 : 1;
  if ((my_bits(st) & need) != need) {
    say(why, "this process (" + user(me) + ") may not " + (write ? "create files in " : "use ") + path + " (" +
                 owner_and_mode(st) +
                 "): the pool and its keys belong to the service; run this as the service "
                 "user or as the operator who created the pool");
    return unexpected(error::access_denied);
  }
  return {};
}

}  // namespace

std::string shm_dir() {
  const char* d = std::getenv("CUZK_SHM_DIR");
  return d && *d ? std::string(d) : std::string("/dev/shm/cuzk");
}

std::string shm_path(std::string_view name) { return shm_dir() + "/" + std::string(name); }

result<void> check_shm_dir(bool write, std::string* why) noexcept {
  try {
    const std::string path = shm_dir();
    int fd;
    do fd = ::open(path.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    while (fd < 0 && errno == EINTR);
    struct stat st {};
    if (fd < 0) {
      const int err = errno;
      if (err == ENOENT) {
        say(why, "the service's directory " + path + " does not exist (cuzk-shm create makes it)");
        return unexpected(error::not_found);
      }
      if (::lstat(path.c_str(), &st) == 0) return check(st, path, write, why);
      say(why, "cannot open the service's directory " + path + ": " + std::strerror(err));
      return unexpected(err == EACCES ? error::access_denied : error::os_error);
    }
    const int rc = ::fstat(fd, &st);
    const int err = errno;
    ::close(fd);
    if (rc != 0) {
      say(why, "cannot stat " + path + ": " + std::strerror(err));
      return unexpected(error::os_error);
    }
    return check(st, path, write, why);
  } catch (...) {
    say(why, "out of memory");
    return unexpected(error::os_error);
  }
}

result<void> make_shm_dir(const detail::file_access& a, std::string* why) noexcept {
  try {
    const std::string path = shm_dir();
    if (::mkdir(path.c_str(), 0700) == 0) {
      int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      struct stat st {};
      bool ok = fd >= 0 && ::fstat(fd, &st) == 0 && st.st_uid == ::geteuid() &&
                (a.group == static_cast<gid_t>(-1) || ::fchown(fd, static_cast<uid_t>(-1), a.group) == 0) &&
                ::fchmod(fd, a.group == static_cast<gid_t>(-1) ? 0750 : 0770) == 0;
      const int err = errno;
      if (fd >= 0) ::close(fd);
      if (!ok) {
        say(why, "cannot give the new directory " + path + " its owner, group and mode: " + std::strerror(err));
        return unexpected(error::os_error);
      }
    } else if (errno != EEXIST) {
      const int err = errno;
      say(why, "cannot create the service's directory " + path + ": " + std::strerror(err));
      return unexpected(err == EACCES || err == EPERM ? error::access_denied : error::os_error);
    }
    return check_shm_dir(true, why);
  } catch (...) {
    say(why, "out of memory");
    return unexpected(error::os_error);
  }
}

}  // namespace cuzk::shm
