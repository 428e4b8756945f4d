// Network clients (DESIGN §11): a libzmq ROUTER on tcp:// secured with
// CURVE. A ZAP handler (RFC 27) of its own context admits only the public
// keys the operator put in the clients directory (NAME.pub, from `cuzk
// keygen`) and names each admitted connection by that NAME, which the loop
// takes as the client's identity exactly as a uid on ipc (network_uid: its
// own jobs, its own limits). An unknown key is refused at the handshake and
// counted. Plaintext TCP only with insecure_loopback, on a loopback address.
#pragma once

#include <utility>  // before Boost 1.74 asio: its awaitable.hpp uses std::exchange without it

#include <sys/types.h>

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <zmq.hpp>

#include "net/envelope_io.hpp"
#include "proto/message.hpp"
#include "router_reader.hpp"
#include "server_options.hpp"

namespace cuzk::server {

/* The clients directory, read again when it changes (revoking a client is removing its file; a key file
   rewritten in place is read within a second). */
class authorized_clients {
 public:
  explicit authorized_clients(std::filesystem::path dir);
  /* The name of the client whose 32-byte public key this is, or nullopt. */
  std::optional<std::string> name_of(std::string_view public_key);
  std::size_t size();

 private:
  void reload_if_changed();
  std::filesystem::path dir_;
  std::mutex mu_;
  std::filesystem::file_time_type seen_{};
  std::chrono::steady_clock::time_point loaded_{};
  std::map<std::string, std::string> by_key_;  // binary public key → name
};

struct network_counters {
  std::atomic<std::uint64_t> admitted{0}, refused{0};
};

class network_listener {
 public:
  /* One request: the connection's routing id, the client's name, the decoded Envelope (or why not). */
  using message_handler = std::function<void(const std::string& routing_id, const std::string& name, const net::decoded& m)>;
  /* Checks the options (a sentence for the operator when they are refused), starts the ZAP handler, binds. */
  network_listener(boost::asio::io_context& io, const network_options& opt, message_handler on_message);
  ~network_listener();
  network_listener(const network_listener&) = delete;
  network_listener& operator=(const network_listener&) = delete;

  void start();
  bool send(const std::string& routing_id, const proto::message& m);
  /* Reads what is queued (ZMQ_FD is edge-triggered and a send can take the edge: the loop calls this every tick). */
  void drain();
  const network_counters& counters() const { return counters_; }
  /* The bound endpoint (the port chosen when the endpoint said 0). */
  std::string local_endpoint() const;
  bool secure() const { return !insecure_; }

 private:
  void zap_loop();
  void on_frame(const net::routed& r);

  boost::asio::io_context& io_;
  message_handler on_message_;
  bool insecure_;
  std::optional<authorized_clients> clients_;
  network_counters counters_;
  zmq::context_t ctx_;  // its own: its ZAP handler answers this socket's handshakes only
  zmq::socket_t zap_, router_;
  std::atomic<bool> stop_{false};
  std::thread zap_thread_;
  router_reader reader_;
};

}  // namespace cuzk::server
