#include "shm/shm_file.hpp"

#include <fcntl.h>
#include <grp.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

namespace cuzk::shm::detail {
void say(std::string* why, const std::string& s) {
  if (why) *why = s;
}

std::string octal(mode_t m) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04o", static_cast<unsigned>(m & 07777));
  return buf;
}

namespace {

std::string owner_and_mode(const struct stat& st) {
  return "owned by uid " + std::to_string(st.st_uid) + " gid " + std::to_string(st.st_gid) + " with mode " +
         octal(st.st_mode);
}

const char* kind(mode_t m) {
  if (S_ISDIR(m)) return "a directory";
  if (S_ISFIFO(m)) return "a FIFO";
  if (S_ISLNK(m)) return "a symbolic link";
  if (S_ISSOCK(m)) return "a socket";
  if (S_ISCHR(m) || S_ISBLK(m)) return "a device";
  return "not a regular file";
}

std::vector<gid_t> my_groups() {
  std::vector<gid_t> g{::getegid()};
  int n = ::getgroups(0, nullptr);
  if (n > 0) {
    std::vector<gid_t> more(static_cast<std::size_t>(n));
    n = ::getgroups(n, more.data());
    if (n > 0) g.insert(g.end(), more.begin(), more.begin() + n);
  }
  return g;
}

std::string group_list() {
  std::string s;
  for (gid_t g : my_groups()) s += (s.empty() ? "" : " ") + std::to_string(g);
  return s;
}

}  // namespace

bool in_my_groups(gid_t g) {
  const auto gs = my_groups();
  return std::find(gs.begin(), gs.end(), g) != gs.end();
}

result<file_access> access_for_group(const std::string& group, std::string* why) noexcept {
  try {
    if (group.empty()) return file_access{};
    std::vector<char> buf(16384);
    struct group gr {};
    struct group* found = nullptr;
    int rc;
    while ((rc = ::getgrnam_r(group.c_str(), &gr, buf.data(), buf.size(), &found)) == ERANGE && buf.size() < (1u << 22))
      buf.resize(buf.size() * 2);
    if (rc != 0 || !found) {
      say(why, "group '" + group +
                   "' does not exist (create it first, or leave out --group for a pool only its owner "
                   "may open)");
      return unexpected(error::bad_config);
    }
    return file_access{0660, gr.gr_gid};
  } catch (...) {
    say(why, "out of memory");
    return unexpected(error::os_error);
  }
}

file_access access_of(const struct stat& st) noexcept {
  if (st.st_mode & 070) return file_access{0660, st.st_gid};
  return file_access{};
}

result<void> apply_access(int fd, const file_access& a, std::string_view what, const std::string& path,
                          std::string* why) noexcept {
  try {
    if (a.group != static_cast<gid_t>(-1) && ::fchown(fd, static_cast<uid_t>(-1), a.group) != 0) {
      say(why, "cannot give " + std::string(what) + " " + path + " the group gid " + std::to_string(a.group) + ": " +
                   std::strerror(errno));
      return unexpected(error::os_error);
    }
    if (::fchmod(fd, a.mode) != 0) {
      say(why, "cannot set the mode of " + std::string(what) + " " + path + " to " + octal(a.mode) + ": " +
                   std::strerror(errno));
      return unexpected(error::os_error);
    }
    return {};
  } catch (...) {
    return unexpected(error::os_error);
  }
}

result<int> create_file(const std::string& path, const file_access& a, std::string_view what,
                        std::string* why) noexcept {
  try {
    int fd;
    do fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    while (fd < 0 && errno == EINTR);
    if (fd < 0) {
      const int err = errno;
      if (err == EEXIST) {
        say(why, std::string(what) + " " + path + " already exists");
        return unexpected(error::already_exists);
      }
      say(why, "cannot create " + std::string(what) + " " + path + ": " + std::strerror(err));
      return unexpected(err == EACCES ? error::access_denied : error::os_error);
    }
    if (auto r = apply_access(fd, a, what, path, why); !r) {
      ::unlink(path.c_str());
      ::close(fd);
      return unexpected(r.error());
    }
    return fd;
  } catch (...) {
    say(why, "out of memory");
    return unexpected(error::os_error);
  }
}

result<void> check_owner(const struct stat& st, const std::string& path, std::string_view what, std::string* why,
                         const struct stat* also) noexcept {
  try {
    const std::string head = std::string(what) + " " + path;
    if (!S_ISREG(st.st_mode)) {
      say(why, head + " is " + kind(st.st_mode) + " (" + owner_and_mode(st) +
                   "), expected a regular file made by the service");
      return unexpected(error::access_denied);
    }
    if (st.st_mode & 007) {
      say(why, head + " is " + owner_and_mode(st) + ", which lets every user open it; expected mode 0600 or 0660");
      return unexpected(error::access_denied);
    }
    const uid_t me = ::geteuid();
    if (st.st_uid == me || st.st_uid == 0) return {};
    if (also && st.st_uid == also->st_uid) return {};
    if (st.st_mode & 070) {
      if (in_my_groups(st.st_gid)) return {};
      if (also && (also->st_mode & 070) && also->st_gid == st.st_gid) return {};
    }
    say(why,
        head + " is " + owner_and_mode(st) + "; expected owner " +
            (me == 0 ? std::string("root (this process)") : "uid " + std::to_string(me) + " (this process) or root") +
            ", or group access for one of this process's groups (" + group_list() + ")");
    return unexpected(error::access_denied);
  } catch (...) {
    say(why, "out of memory");
    return unexpected(error::os_error);
  }
}

result<int> open_checked(const std::string& path, int flags, std::string_view what, std::string* why,
                         const struct stat* also) noexcept {
  try {
    int fd;
    do fd = ::open(path.c_str(), flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    while (fd < 0 && errno == EINTR);
    if (fd < 0) {
      const int err = errno;
      struct stat ls {};
      const bool seen = ::lstat(path.c_str(), &ls) == 0;
      if (err == ENOENT) {
        say(why, "no " + std::string(what) + " " + path);
        return unexpected(error::not_found);
      }
      if (err == ELOOP && seen && S_ISLNK(ls.st_mode)) {
        say(why, std::string(what) + " " + path + " is a symbolic link (" + owner_and_mode(ls) +
                     "), expected a regular file made by the service; links are never followed");
        return unexpected(error::access_denied);
      }
      if ((err == EACCES || err == EPERM) && seen) {
        if (auto c = check_owner(ls, path, what, why, also); !c) return unexpected(c.error());
        say(why, std::string(what) + " " + path + " is " + owner_and_mode(ls) + " and this process (uid " +
                     std::to_string(::geteuid()) + ", groups " + group_list() + ") may not open it " +
                     ((flags & O_ACCMODE) == O_RDONLY ? "for reading" : "for reading and writing") + " (" +
                     std::strerror(err) + "); expected its owner, or a member of its group with mode 0660");
        return unexpected(error::access_denied);
      }
      say(why, "cannot open " + std::string(what) + " " + path + ": " + std::strerror(err));
      return unexpected(error::os_error);
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
      say(why, "cannot stat " + std::string(what) + " " + path + ": " + std::strerror(errno));
      ::close(fd);
      return unexpected(error::os_error);
    }
    if (auto c = check_owner(st, path, what, why, also); !c) {
      ::close(fd);
      return unexpected(c.error());
    }
    return fd;
  } catch (...) {
    say(why, "out of memory");
    return unexpected(error::os_error);
  }
}

result<mapping> mapping::of(int fd, std::size_t size, bool writable, const std::string& path,
                            std::string* why) noexcept {
  if (size == 0) {
    say(why, "cannot map " + path + ": it is empty");
    return unexpected(error::bad_size);
  }
  void* p = ::mmap(nullptr, size, PROT_READ | (writable ? PROT_WRITE : 0), MAP_SHARED, fd, 0);
  if (p == MAP_FAILED) {
    try {
      say(why, "cannot map " + path + ": " + std::strerror(errno));
    } catch (...) {
    }
    return unexpected(error::os_error);
  }
  return mapping(p, size);
}

mapping& mapping::operator=(mapping&& o) noexcept {
  if (this != &o) {
    if (p_) ::munmap(p_, n_);
    p_ = o.p_;
    n_ = o.n_;
    o.p_ = nullptr;
    o.n_ = 0;
  }
  return *this;
}

mapping::~mapping() {
  if (p_) ::munmap(p_, n_);
}

}  // namespace cuzk::shm::detail
