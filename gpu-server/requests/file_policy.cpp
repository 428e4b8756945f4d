#include "requests/file_policy.hpp"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "listeners/authorized_clients.hpp"
#include "job/file_identity.hpp"
#include "util/fd_guard.hpp"

namespace cuzk::server {

namespace {

using util::unexpected;

/* openat2 with RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS: no component may be a
   symlink or leave dirfd (Linux 5.6). */
int open_beneath(int dirfd, const std::string& relative, std::uint64_t flags) {
  open_how how{};
  how.flags = flags | O_NOFOLLOW | O_CLOEXEC;
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
  int fd;
  do fd = static_cast<int>(::syscall(SYS_openat2, dirfd, relative.c_str(), &how, sizeof how));
  while (fd < 0 && errno == EINTR);
  return fd;
}

/* The peer may search (x) the directory open as fd, as the kernel would check for the peer itself. */
bool may_search(const net::peer_credentials& who, int fd) {
  struct stat st {};
  return ::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode) &&
         net::may_read(who, st.st_uid, st.st_gid, (st.st_mode & 0111) << 2);
}

using util::fd_guard;

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
  if (is_remote_uid(who.uid))
    return unexpected("a network client or API key names no " + what_ + " file on the server's host");
  const std::filesystem::path p = std::filesystem::path(path).lexically_normal();
  for (const auto& dir : dirs_) {
    const auto rel = p.lexically_relative(dir);
    if (rel.empty() || *rel.begin() == ".." || rel == ".") continue;
    fd_guard top{::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)};
    if (top.fd < 0) continue;
    return open_under(who, top.release(), rel, path);
  }
  return unexpected("the " + what_ + " " + path + " cannot be opened");
}

/* One component at a time from the allow-listed directory, each directory
   opened (O_PATH) and checked for the peer before anything inside it is
   looked up: whether a name exists, or what it is, is said only about
   directories the peer may search itself, and one sentence covers the rest. */
util::expected<opened_file, std::string> file_policy::open_under(const net::peer_credentials& who, int top,
                                                                 const std::filesystem::path& rel,
                                                                 const std::string& path) const {
  auto failed = [&](int err) {
    if (err == ELOOP || err == EXDEV)
      return unexpected("the " + what_ + " " + path +
                        " goes through a symbolic link, which the server does not follow");
    return unexpected("cannot open the " + what_ + " " + path + ": " + std::strerror(err));
  };
  fd_guard dir{top};
  for (auto it = rel.begin();; ++it) {
    if (!may_search(who, dir.fd))
      return unexpected("cannot open the " + what_ + " " + path + ": permission denied or no such file (uid " +
                        std::to_string(who.uid) + " may not search a directory on its way)");
    if (std::next(it) == rel.end()) break;
    const int next = open_beneath(dir.fd, it->string(), O_PATH | O_DIRECTORY);
    if (next < 0) return failed(errno);
    ::close(dir.fd);
    dir.fd = next;
  }
  // O_NONBLOCK: a FIFO never blocks the open.
  fd_guard file{open_beneath(dir.fd, rel.filename().string(), O_RDONLY | O_NONBLOCK | O_NOCTTY)};
  if (file.fd < 0) return failed(errno);
  struct stat st {};
  if (::fstat(file.fd, &st) != 0 || !S_ISREG(st.st_mode))
    return unexpected("the " + what_ + " " + path + " is not a regular file");
  if (!net::may_read(who, st.st_uid, st.st_gid, st.st_mode))
    return unexpected("permission denied: you (uid " + std::to_string(who.uid) + ") cannot read the " + what_ + " " +
                      path + " yourself");
  return opened_file(file.release(), job::file_identity(st));
}

}  // namespace cuzk::server
