// Endpoints: binding, and the ipc socket file's permissions (DESIGN §4: mode
// 0660, group cuzk, so members of the group may connect and nobody else).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <sys/types.h>
#include <zmq.hpp>

namespace cuzk::net {

/* "ipc:///run/cuzk/cuzk.sock" → "/run/cuzk/cuzk.sock". nullopt for other
   transports and for abstract sockets ("ipc://@name"), which have no file. */
std::optional<std::string> ipc_path(std::string_view endpoint);

/* Binds, then chmods an ipc endpoint's socket file to mode. Throws
   zmq::error_t when the bind fails, std::system_error when the chmod does. */
void bind_endpoint(zmq::socket_t& s, const std::string& endpoint, mode_t mode = 0660);

}  // namespace cuzk::net
