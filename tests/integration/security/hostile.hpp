// What a hostile local client uses against the real service: a raw DEALER
// that can claim any routing id and send anything, and a child process that
// became uid nobody (group nogroup) to run as a second, unprivileged user.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>
#include <zmq.hpp>

#include "proto/codec.hpp"

namespace cuzk::test {

struct cli_result {
  int exit = -1;
  std::string output;  // stdout and stderr
};
/* The cuzk CLI, as root or (nobody) as uid nobody with only group nogroup, killed after `limit` seconds. */
cli_result cli(bool nobody, const std::vector<std::string>& args, int limit = 60);

/* A raw DEALER on an endpoint, to send what the client library never would. */
struct raw_peer {
  zmq::context_t ctx;
  zmq::socket_t s{ctx, zmq::socket_type::dealer};
  /* routing_id: the id this DEALER claims (empty: none, the server's choice). */
  explicit raw_peer(const std::string& endpoint, const std::string& routing_id = "");
  void send(const proto::body& b, std::uint64_t rq = 0);
  /* The next decodable message within `limit`, or nullopt. */
  std::optional<proto::message> receive(std::chrono::milliseconds limit);
};

/* Runs f in a forked child that dropped to uid nobody and group nogroup
   (after raising its descriptor limit to `nofile`, while still root); the
   child's exit code is f's return value. Returns the child's pid. */
pid_t fork_as_nobody(const std::function<int()>& f, unsigned nofile = 0);
/* The exit code of a child from fork_as_nobody (-1: killed or not exited within `limit`, then killed). */
int wait_child(pid_t pid, std::chrono::seconds limit);

/* Plain connect()s to an ipc socket path, held open: the descriptors (-1 where connect failed). */
std::vector<int> open_unix_connections(const std::string& path, unsigned n);
/* How many of these descriptors the server has not closed (no EOF or error when polled). */
unsigned still_open(const std::vector<int>& fds);

}  // namespace cuzk::test
