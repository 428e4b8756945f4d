// Endpoints: binding, and the ipc socket file's permissions (DESIGN §4/§9:
// clients' socket 0660 in the client group, workers' 0600 or 0660 in the
// service group).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include <sys/types.h>
#include <zmq.hpp>

namespace cuzk::net {

/* "ipc:///run/cuzk/cuzk.sock" → "/run/cuzk/cuzk.sock". nullopt for other
   transports and for abstract sockets ("ipc://@name"), which have no file. */
std::optional<std::string> ipc_path(std::string_view endpoint);

/* True when a process accepts connections on the ipc socket file at path. */
bool ipc_answers(const std::string& path);

/* The socket-file part of binding `endpoint`, around `bind` (which creates
   the socket): std::invalid_argument for a group on an endpoint that has no
   socket file (tcp, abstract ipc); for ipc, std::runtime_error when the path
   is not a socket or another live process answers on it (a stale socket is
   removed), the file created under a umask that gives it `mode` from the
   start, so nobody can connect before its permissions are right, then the
   group set (std::system_error when the chown/chmod fails). */
void bind_socket_file(const std::string& endpoint, mode_t mode, std::optional<gid_t> group,
                      const std::function<void()>& bind);

/* Binds an endpoint (bind_socket_file around zmq's bind). For ipc: refuses (std::runtime_error) when another live
   process answers on the socket file (libzmq would silently unlink it and
   take over), creates the file under a umask that gives it `mode` from the
   start, so nobody can connect before its permissions are right, then sets
   the group when given. Throws zmq::error_t when the bind fails,
   std::system_error when the chown/chmod does, std::invalid_argument for a
   group with an endpoint that has no socket file (tcp, abstract ipc). */
void bind_endpoint(zmq::socket_t& s, const std::string& endpoint, mode_t mode = 0660,
                   std::optional<gid_t> group = std::nullopt);

/* The gid of a group name or number; std::runtime_error naming it if none. */
gid_t group_id(const std::string& name);

}  // namespace cuzk::net
