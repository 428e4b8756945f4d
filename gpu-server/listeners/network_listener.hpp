// Network clients (DESIGN §11): a TCP acceptor on the loop speaking ZMTP with
// CURVE (net/curve_server.hpp), so libzmq DEALER clients with CURVE work
// unchanged while a connection's identity is what its handshake proved: the
// client key, found in the clients directory (authorized_clients.hpp) as
// NAME, the client's identity exactly as a uid on ipc (network_uid), and a
// number the server assigns. No routing id or property a peer declares is
// used. Connections are bounded per source address and in total (below the
// descriptor limit) before any key is shown; the excess is closed at once,
// running out of descriptors pauses accepting, and a connection that does
// not finish its handshake in time, or does not read its replies, is closed.
// A connection whose key is revoked is closed within a second, one silent
// for 60 s (clients PING every second) too. Plaintext
// (ZMTP NULL, every peer the client "loopback") only with insecure_loopback,
// on a loopback address.
#pragma once

#include <utility>  // before Boost 1.74 asio: its awaitable.hpp uses std::exchange without it

#include <boost/asio/io_context.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "server_options.hpp"

namespace cuzk::server {

struct network_counters {
  std::uint64_t admitted = 0, refused = 0;  // CURVE handshakes: a key in the clients directory, or not
  std::uint64_t accepted = 0, refused_per_address = 0, refused_total = 0, handshake_timeouts = 0, protocol_errors = 0,
                slow_readers = 0, revoked = 0, idle_timeouts = 0, accept_errors = 0;
};

class network_listener {
 public:
  /* One request: the connection it came on, the client's name, its frames. */
  using message_handler =
      std::function<void(std::uint64_t conn, const std::string& name, std::vector<std::vector<std::uint8_t>>)>;
  using close_handler = std::function<void(std::uint64_t conn)>;
  /* Checks the options (a sentence for the operator when they are refused), reads the keys, binds. */
  network_listener(boost::asio::io_context& io, const network_options& opt, message_handler on_message,
                   close_handler on_close);
  ~network_listener();
  network_listener(const network_listener&) = delete;
  network_listener& operator=(const network_listener&) = delete;

  void start();
  /* Queues one reply; false when the connection is gone or was closed for not reading. */
  bool send(std::uint64_t conn, std::span<const std::uint8_t> bytes);
  const network_counters& counters() const;
  std::size_t connections() const;
  /* The bound endpoint, tcp://ADDR:PORT (the port chosen when the endpoint said 0 or *). */
  std::string local_endpoint() const;
  bool secure() const;

  struct impl;

 private:
  std::shared_ptr<impl> impl_;
};

}  // namespace cuzk::server
