#include "net/endpoint.hpp"

#include <cerrno>
#include <system_error>

#include <sys/stat.h>

namespace cuzk::net {

std::optional<std::string> ipc_path(std::string_view endpoint) {
  constexpr std::string_view scheme = "ipc://";
  if (!endpoint.starts_with(scheme)) return std::nullopt;
  std::string_view path = endpoint.substr(scheme.size());
  if (path.empty() || path.front() == '@') return std::nullopt;
  return std::string(path);
}

void bind_endpoint(zmq::socket_t& s, const std::string& endpoint, mode_t mode) {
  s.bind(endpoint);
  if (auto path = ipc_path(endpoint); path && ::chmod(path->c_str(), mode) != 0)
    throw std::system_error(errno, std::generic_category(), "chmod " + *path);
}

}  // namespace cuzk::net
