// The clients' endpoint: a Unix socket the server accepts on itself (Asio on
// the loop) and speaks ZMTP over (zmtp_connection.hpp, the NULL mechanism), so libzmq DEALER clients work
// unchanged while every connection's identity is the connection: its
// SO_PEERCRED and a number the server assigns. No routing id a client sends
// is ever used, so none can collide with another or take another's replies.
// Connections are bounded per uid and in total below the descriptor limit;
// the excess is closed at once, and running out of descriptors pauses
// accepting instead of ending the process. A connection that does not finish
// its handshake in time, or does not read its replies, is closed.
#pragma once

#include <utility>  // before Boost 1.74 asio: its awaitable.hpp uses std::exchange without it

#include <boost/asio/io_context.hpp>
#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "net/peer.hpp"

namespace cuzk::server {

struct client_limits {
  std::uint32_t per_uid = 64;  // connections one uid may hold (operators too)
  std::uint32_t total = 1024;  // all clients' connections; capped below RLIMIT_NOFILE at start
  std::chrono::milliseconds handshake{5000};
  std::size_t max_queued_bytes = 32u << 20;  // replies a connection has not read; beyond: closed
  unsigned messages_per_turn = 4;            // requests of one connection handled before others get a turn
};

struct client_counters {
  std::uint64_t accepted = 0, refused_per_uid = 0, refused_total = 0, protocol_errors = 0, slow_readers = 0,
                handshake_timeouts = 0, accept_errors = 0;
};

class client_listener {
 public:
  /* One request: the connection it came on, its peer, its frames. */
  using message_handler =
      std::function<void(std::uint64_t conn, const net::peer_credentials&, std::vector<std::vector<std::uint8_t>>)>;
  using close_handler = std::function<void(std::uint64_t conn)>;

  /* Binds an ipc:// endpoint (a socket file created with `mode` from the
     start, then given `group`; or an abstract "ipc://@name"). Refuses another
     live server's socket and any other transport, with a sentence. */
  client_listener(boost::asio::io_context& io, const std::string& endpoint, mode_t mode, std::optional<gid_t> group,
                  client_limits limits, message_handler on_message, close_handler on_close);
  ~client_listener();
  client_listener(const client_listener&) = delete;
  client_listener& operator=(const client_listener&) = delete;

  void start();
  /* Stops accepting; open connections stay. */
  void stop_accepting();
  /* Queues one reply; false when the connection is gone or was closed for
     not reading (its queue over max_queued_bytes). */
  bool send(std::uint64_t conn, std::span<const std::uint8_t> bytes);
  void close(std::uint64_t conn);

  std::size_t connections() const;
  std::uint32_t connections_of(uid_t uid) const;
  const client_counters& counters() const;
  const client_limits& limits() const;

  struct impl;

 private:
  std::shared_ptr<impl> impl_;
};

/* The total connection bound that fits the process's descriptor limit:
   min(wanted, (RLIMIT_NOFILE soft limit - reserve) / 2) after raising the
   soft limit to the hard one; the reserve covers the pool, keys, the workers'
   socket, metrics and files the preparation threads open. */
std::uint32_t fit_descriptor_limit(std::uint32_t wanted, std::uint32_t reserve = 256);

}  // namespace cuzk::server
