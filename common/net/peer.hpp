// Who sent a message: for ipc connections libzmq records the peer's
// SO_PEERCRED at connect time in the message's "Peer-Address" property as
// "…:UID:GID:PID" (libzmq 4.3 stream_engine_base.cpp, get_peer_address).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <zmq.hpp>

namespace cuzk::net {

struct peer_credentials {
  uid_t uid = 0;
  gid_t gid = 0;
  pid_t pid = 0;
};

/* Parses "HOST:UID:GID:PID"; nullopt for anything else (tcp peers). */
std::optional<peer_credentials> parse_peer_address(std::string_view address);
std::optional<peer_credentials> peer_of(const zmq::message_t& m);
/* The User-Id a ZAP handler gave the connection (RFC 27), or empty. */
std::string user_id_of(const zmq::message_t& m);

/* Could a process with this uid (and its groups from the user database) read
   a file with this owner and mode? Root can. */
bool may_read(const peer_credentials& who, uid_t owner, gid_t group, mode_t mode);

}  // namespace cuzk::net
