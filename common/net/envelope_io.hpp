// Sending and receiving one Envelope (docs/protocol.md, "Framing").
//   DEALER ↔ ROUTER: the DEALER sends one frame, the Envelope. The ROUTER
//   sees [routing id, Envelope] and replies the same way. There is no empty
//   delimiter frame (REQ/REP envelopes are not used); any other frame count
//   decodes as ERROR_CODE_MALFORMED.
// cppzmq's habits: would-block is an empty optional (or would_block), a real
// failure throws zmq::error_t. Sends and receives default to non-blocking;
// pass zmq::send_flags::none / zmq::recv_flags::none to block.
#pragma once

#include <optional>
#include <string>

#include <zmq.hpp>

#include "net/peer.hpp"
#include "proto/codec.hpp"
#include "util/expected.hpp"

namespace cuzk::net {

using decoded = util::expected<proto::message, proto::decode_error>;

/* A ROUTER routing id: opaque bytes (libzmq makes 5-byte ones by default). */
using peer_id = std::string;

struct routed {
  peer_id peer;
  decoded msg;                           // the message, or why it was refused (reply with proto::error_message)
  std::optional<peer_credentials> cred;  // the sender's SO_PEERCRED (ipc peers only; peer.hpp)
  std::string user_id;                   // what the ZAP handler named the connection (CURVE peers), or empty
};

enum class send_result {
  sent,
  would_block,  // high-water mark reached (or, with ZMQ_IMMEDIATE, no connection yet)
  unreachable,  // ROUTER_MANDATORY: no such peer (it disconnected)
};

/* DEALER side. */
[[nodiscard]] send_result send(zmq::socket_t& dealer, const proto::message& m,
                               zmq::send_flags flags = zmq::send_flags::dontwait);
[[nodiscard]] std::optional<decoded> receive(zmq::socket_t& dealer, zmq::recv_flags flags = zmq::recv_flags::dontwait);

/* ROUTER side. */
[[nodiscard]] send_result send_to(zmq::socket_t& router, const peer_id& peer, const proto::message& m,
                                  zmq::send_flags flags = zmq::send_flags::dontwait);
[[nodiscard]] std::optional<routed> receive_routed(zmq::socket_t& router,
                                                   zmq::recv_flags flags = zmq::recv_flags::dontwait);

}  // namespace cuzk::net
