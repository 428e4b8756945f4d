// The metrics endpoint: an HTTP/1.1 server on Boost.Beast that runs on the
// server's io_context (async accept, read and write; a deadline and a size
// limit per request; one response per connection), so it never blocks the loop.
// Any local user can connect, so connections are bounded per peer (its uid,
// from the kernel's socket table, else its address) and in total, and a new
// connection over a bound closes the oldest one of the peer that holds the most:
// a flood of slow requests costs its sender its own connections, never a probe's.
#pragma once

#include <utility>  // before Boost 1.74 asio: its awaitable.hpp uses std::exchange without it

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace cuzk::server {

struct http_reply {
  unsigned status = 200;
  std::string content_type = "text/plain; charset=utf-8";
  std::string body;
};

class metrics_http {
 public:
  /* Called on the loop for each GET with the request's path, its query (after '?', "" when none) and the uid
     that owns the peer socket (the kernel's socket table; nullopt when the peer is not on this host). */
  using handler =
      std::function<http_reply(std::string_view path, std::string_view query, std::optional<std::uint32_t> peer_uid)>;

  /* Binds and listens on "host:port" ("[::1]:9464"; port 0: any free port).
     Throws std::runtime_error with a sentence when the address is malformed or cannot be bound. */
  metrics_http(boost::asio::io_context& io, const std::string& address, handler h);
  ~metrics_http();
  metrics_http(const metrics_http&) = delete;
  metrics_http& operator=(const metrics_http&) = delete;

  /* Starts accepting (on the loop). */
  void start();
  boost::asio::ip::tcp::endpoint local_endpoint() const;

  static constexpr std::chrono::seconds read_timeout{3};   // the whole request, from its accept
  static constexpr std::chrono::seconds write_timeout{5};  // the whole response
  static constexpr std::size_t max_connections = 64;
  static constexpr std::size_t max_per_peer = 8;

  struct counts {
    std::size_t open = 0;
    std::uint64_t evicted = 0;    // closed to make room for a newer connection
    std::uint64_t timed_out = 0;  // request or response not through by its deadline
  };
  counts stats() const;

  struct impl;  // the acceptor and the handler, shared with the connections

 private:
  std::shared_ptr<impl> impl_;
};

}  // namespace cuzk::server
