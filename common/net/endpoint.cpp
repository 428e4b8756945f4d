#include "net/endpoint.hpp"

#include <grp.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <system_error>

namespace cuzk::net {

std::optional<std::string> ipc_path(std::string_view endpoint) {
  constexpr std::string_view scheme = "ipc://";
  if (!endpoint.starts_with(scheme)) return std::nullopt;
  std::string_view path = endpoint.substr(scheme.size());
  if (path.empty() || path.front() == '@') return std::nullopt;
  return std::string(path);
}

bool ipc_answers(const std::string& path) {
  sockaddr_un a{};
  if (path.size() >= sizeof a.sun_path) return false;
  a.sun_family = AF_UNIX;
  std::memcpy(a.sun_path, path.c_str(), path.size() + 1);
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  const bool live = ::connect(fd, reinterpret_cast<const sockaddr*>(&a), sizeof a) == 0;
  ::close(fd);
  return live;
}

gid_t group_id(const std::string& name) {
  if (const group* g = ::getgrnam(name.c_str())) return g->gr_gid;
  char* end = nullptr;
  const unsigned long n = std::strtoul(name.c_str(), &end, 10);
  if (!name.empty() && end && *end == '\0') return static_cast<gid_t>(n);
  throw std::runtime_error("no group '" + name + "' (create it, e.g. with the sysusers.d file in systemd/)");
}

void bind_socket_file(const std::string& endpoint, mode_t mode, std::optional<gid_t> group,
                      const std::function<void()>& bind) {
  const auto path = ipc_path(endpoint);
  if (!path && group)
    throw std::invalid_argument(endpoint +
                                " has no socket file whose group could be set, so a group would not limit "
                                "who connects; bind an ipc:///path endpoint to limit it to a group");
  if (!path) {
    bind();
    return;
  }
  struct stat st {};
  if (::lstat(path->c_str(), &st) == 0) {
    if (!S_ISSOCK(st.st_mode)) throw std::runtime_error(*path + " exists and is not a socket; refusing to replace it");
    if (ipc_answers(*path))
      throw std::runtime_error("another process answers on " + *path + "; refusing to take over its socket");
    ::unlink(path->c_str());  // a dead server's socket
  }
  // The umask is per process: binding happens before any other thread of
  // ours creates files, and it is restored at once.
  const mode_t old = ::umask(static_cast<mode_t>(~mode & 0777));
  try {
    bind();
  } catch (...) {
    ::umask(old);
    throw;
  }
  ::umask(old);
  if (group && ::chown(path->c_str(), static_cast<uid_t>(-1), *group) != 0)
    throw std::system_error(errno, std::generic_category(), "chown " + *path);
  if (::chmod(path->c_str(), mode) != 0) throw std::system_error(errno, std::generic_category(), "chmod " + *path);
}

void bind_endpoint(zmq::socket_t& s, const std::string& endpoint, mode_t mode, std::optional<gid_t> group) {
  bind_socket_file(endpoint, mode, group, [&] { s.bind(endpoint); });
}

}  // namespace cuzk::net
