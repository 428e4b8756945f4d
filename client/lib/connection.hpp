// A client's connection to cuzk-gpu-server: one DEALER socket, one request
// in flight, replies matched by request id (stale replies to an abandoned
// attempt are dropped). A request that gets no reply in time is sent again on
// a fresh socket, which is safe because every request is idempotent: Submit
// by its job id, the others because they only read.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include <zmq.hpp>

#include "client/lib/errors.hpp"
#include "proto/message.hpp"

namespace cuzk::client {

using std::chrono::milliseconds;

/* A network client's CURVE keys (net/curve_keys.hpp): its own keypair and the server's public key, all Z85. */
struct curve_keys {
  std::string public_key, secret_key, server_key;
};

struct options {
  milliseconds timeout{10'000};     // for one attempt: the send and the reply
  int attempts = 3;                 // each on a fresh socket (reconnect)
  milliseconds wait_slice{5'000};   // wait() asks the server in slices this long
  std::optional<curve_keys> curve;  // tcp:// endpoints: CURVE with these keys (none: plaintext, loopback servers only)
  std::size_t upload_window = 8;    // upload chunks in flight before the first is acknowledged
  /* A gateway's API key every request speaks for (client "http:NAME"; the server takes it only from a gateway
     its operator trusts). Empty: the connection's own identity. */
  std::string on_behalf_of = {};
};

/* A fresh job id: 8-4-4-4-12 hex digits, version 4 (random) layout. */
std::string random_job_id();

/* A finished job's proofs, or its status (not finished yet, or failed). */
using job_outcome = std::variant<proto::proof_reply, proto::job_status>;

class connection {
 public:
  explicit connection(options o = {});
  connection(const std::string& endpoint, options o);
  explicit connection(const std::string& endpoint) : connection(endpoint, options{}) {}
  ~connection();
  connection(const connection&) = delete;
  connection& operator=(const connection&) = delete;

  /* "ipc:///run/cuzk/cuzk.sock" or "tcp://host:port". Connecting never
     fails for a server that is down; the first request times out instead. */
  void connect(const std::string& endpoint);

  /* Every call below throws server_error for an Error reply, unreachable
     after `attempts` timeouts, protocol_error for an unusable reply.
     owner: the uid whose job the id names (operators; default: the
     caller's own, or the only uid with that id). */
  proto::accepted submit(const proto::submit& s);
  proto::job_status status(std::string_view job_id, std::optional<std::uint32_t> owner = std::nullopt);
  proto::status_reply status();
  /* The node's capacity for this client (a cheap Status: nothing else in the reply). */
  proto::capacity capacity();
  /* The cluster's nodes as the node's database knows them (a Status with nothing else in the reply). */
  proto::cluster_view cluster();
  /* The proofs when the job is done, else its status. Never waits. */
  job_outcome fetch(std::string_view job_id, std::optional<std::uint32_t> owner = std::nullopt);
  /* Fails the job "cancelled by its client": its status after (a finished job's as it was). */
  proto::job_status cancel(std::string_view job_id, std::optional<std::uint32_t> owner = std::nullopt);
  /* Returns as soon as the job is done or failed, or its status once
     `timeout` has passed. */
  job_outcome wait(std::string_view job_id, milliseconds timeout, std::optional<std::uint32_t> owner = std::nullopt);

  /* Streams a file into the server's spool as upload_id (a Submit then names it upload:ID):
     a witness names the installed key id it is for, checked against its header first. */
  void upload(const std::string& upload_id, proto::upload_kind kind, const std::filesystem::path& file,
              const std::string& key_id = {});
  /* One chunk, and the server's acknowledgement. */
  proto::upload_ack upload_chunk(const proto::upload& u);

  const std::string& endpoint() const noexcept { return endpoint_; }

 private:
  using clock = std::chrono::steady_clock;
  proto::message request(const proto::body& b, milliseconds reply_within);
  std::optional<proto::message> attempt(const proto::body& b, milliseconds reply_within);
  /* One request sent (its id), or nullopt when the socket took nothing before the deadline. */
  std::optional<std::uint64_t> send_request(const proto::body& b, clock::time_point deadline);
  /* Its reply (an Error reply throws server_error), or nullopt at the deadline. */
  std::optional<proto::message> await_reply(std::uint64_t id, clock::time_point deadline);

  options opt_;
  std::string endpoint_;
  zmq::context_t ctx_;
  std::unique_ptr<zmq::socket_t> sock_;
  std::uint64_t next_id_;
};

}  // namespace cuzk::client
