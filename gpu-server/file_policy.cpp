#include "file_policy.hpp"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "job/file_identity.hpp"

namespace cuzk::server {

namespace {

using util::unexpected;

/* openat2 with RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS: no component may be a
   symlink or leave dirfd (Linux 5.6). O_NONBLOCK so a FIFO never blocks. */
int open_beneath(int dirfd, const std::string& relative) {
  open_how how{};
  how.flags = O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY;
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
  return static_cast<int>(::syscall(SYS_openat2, dirfd, relative.c_str(), &how, sizeof how));
}

/* Every directory from the allow-listed one down to the file must let the
   peer through (x), as the kernel would check for the peer itself. */
bool may_traverse(const net::peer_credentials& who, int dirfd, const std::filesystem::path& relative) {
  struct stat st {};
  if (::fstat(dirfd, &st) != 0 || !net::may_read(who, st.st_uid, st.st_gid, (st.st_mode & 0111) << 2)) return false;
  std::filesystem::path sub;
  for (auto it = relative.begin(); it != relative.end(); ++it) {
    if (std::next(it) == relative.end()) break;  // the file itself
    sub /= *it;
    if (::fstatat(dirfd, sub.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode) ||
        !net::may_read(who, st.st_uid, st.st_gid, (st.st_mode & 0111) << 2))
      return false;
  }
  return true;
}

}  // namespace

opened_file& opened_file::operator=(opened_file&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(o.fd_, -1);
    identity_ = std::move(o.identity_);
  }
  return *this;
}

opened_file::~opened_file() {
  if (fd_ >= 0) ::close(fd_);
}

std::optional<std::string> file_policy::lexical_refusal(const std::string& path) const {
  const std::filesystem::path p = std::filesystem::path(path).lexically_normal();
  if (!p.is_absolute()) return std::string("the ") + what_ + " path must be absolute";
  for (const auto& dir : dirs_) {
    const auto rel = p.lexically_relative(dir);
    if (!rel.empty() && *rel.begin() != ".." && rel != ".") return std::nullopt;
  }
  if (dirs_.empty())
    return "the server reads no " + what_ + " files named by clients (it was started without a " + what_ +
           " directory)";
  std::string allowed;
  for (const auto& d : dirs_) allowed += (allowed.empty() ? "" : ", ") + d.string();
  return "the " + what_ + " " + path + " is outside the directories the operator allowed (" + allowed + ")";
}

util::expected<opened_file, std::string> file_policy::open(const net::peer_credentials& who,
                                                           const std::string& path) const {
  if (auto why = lexical_refusal(path)) return unexpected(*why);
  const std::filesystem::path p = std::filesystem::path(path).lexically_normal();
  for (const auto& dir : dirs_) {
    const auto rel = p.lexically_relative(dir);
    if (rel.empty() || *rel.begin() == ".." || rel == ".") continue;
    const int dirfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dirfd < 0) continue;
    const int fd = open_beneath(dirfd, rel.string());
    const int err = errno;
    const bool traversable = fd >= 0 && may_traverse(who, dirfd, rel);
    ::close(dirfd);
    if (fd < 0) {
      if (err == ELOOP || err == EXDEV)
        return unexpected("the " + what_ + " " + path + " goes through a symbolic link, which the server does not follow");
      return unexpected("cannot open the " + what_ + " " + path + ": " + std::strerror(err));
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
      ::close(fd);
      return unexpected("the " + what_ + " " + path + " is not a regular file");
    }
    if (!traversable || !net::may_read(who, st.st_uid, st.st_gid, st.st_mode)) {
      ::close(fd);
      return unexpected("permission denied: you (uid " + std::to_string(who.uid) + ") cannot read the " + what_ +
                        " " + path + " yourself");
    }
    return opened_file(fd, job::file_identity(st));
  }
  return unexpected("the " + what_ + " " + path + " cannot be opened");
}

}  // namespace cuzk::server
