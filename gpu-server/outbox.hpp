// Where the parts' replies go: the connection a frame came on, and the one
// way to answer it (the loop owns the sockets).
#pragma once

#include <cstdint>
#include <string>

#include "net/peer.hpp"
#include "proto/message.hpp"

namespace cuzk::server {

/* The socket a frame came on: local clients (client_listener), network
   clients (network_listener) or the workers' ROUTER. */
enum class channel { clients, network, workers };

/* Where a reply goes: a connection's identity on its socket (the number
   client_listener gave a client's connection, or a ROUTER's routing id). */
struct address {
  std::string identity;
  channel via = channel::clients;
};

/* Who sent a frame: where it came from, and who that is: a local peer's
   SO_PEERCRED, or for a network client its name and network_uid(name). */
struct peer {
  std::string identity;
  net::peer_credentials cred;
  channel via = channel::clients;
  std::string name;         // network clients ("alice") and API keys a gateway speaks for ("http:alice") only
  bool spoken_for = false;  // a gateway's request for one of its API keys (Envelope.on_behalf_of)
  address to() const { return {identity, via}; }
  /* Not a local account (a network client, or an API key through a gateway): it names no path on this host
     and is never an operator. */
  bool network() const { return via == channel::network || spoken_for; }
};

class outbox {
 public:
  virtual ~outbox() = default;
  /* false: not sent (the peer is gone or not reading). */
  virtual bool send(const address& to, const proto::message& m) = 0;
  /* An ERROR reply whose text is made valid UTF-8 within the protocol's bound, whatever it quotes. */
  void reply_error(const address& to, std::uint64_t request_id, proto::error_code code, const std::string& text);
};

}  // namespace cuzk::server
