#include "net/envelope_io.hpp"

#include <cerrno>
#include <span>

namespace cuzk::net {

namespace {

std::span<const std::uint8_t> bytes(const zmq::message_t& m) {
  return {static_cast<const std::uint8_t*>(m.data()), m.size()};
}

/* Reads the frames that follow a first one; returns how many there were. */
std::size_t drain(zmq::socket_t& s, const zmq::message_t& first) {
  std::size_t extra = 0;
  bool more = first.more();
  while (more) {
    zmq::message_t part;
    // The rest of a multipart message is already queued: never blocks.
    (void)s.recv(part, zmq::recv_flags::none);
    more = part.more();
    ++extra;
  }
  return extra;
}

decoded wrong_frame_count(std::size_t frames, std::size_t expected) {
  return util::unexpected<proto::decode_error>{{proto::error_code::malformed,
                                                std::to_string(frames) + " frames, expected " +
                                                    std::to_string(expected) +
                                                    " (DEALER peers send one frame, no empty delimiter)",
                                                0}};
}

send_result send_frames(zmq::socket_t& s, const peer_id* peer, const proto::message& m, zmq::send_flags flags) {
  const auto frame = proto::encode(m);
  try {
    if (peer) {
      if (!s.send(zmq::buffer(*peer), flags | zmq::send_flags::sndmore)) return send_result::would_block;
    }
    // The routing frame was accepted, so the peer's pipe takes the rest.
    if (!s.send(zmq::buffer(frame), flags)) return send_result::would_block;
  } catch (const zmq::error_t& e) {
    if (e.num() == EHOSTUNREACH) return send_result::unreachable;
    throw;
  }
  return send_result::sent;
}

}  // namespace

send_result send(zmq::socket_t& dealer, const proto::message& m, zmq::send_flags flags) {
  return send_frames(dealer, nullptr, m, flags);
}

send_result send_to(zmq::socket_t& router, const peer_id& peer, const proto::message& m, zmq::send_flags flags) {
  return send_frames(router, &peer, m, flags);
}

std::optional<decoded> receive(zmq::socket_t& dealer, zmq::recv_flags flags) {
  zmq::message_t frame;
  if (!dealer.recv(frame, flags)) return std::nullopt;
  if (std::size_t extra = drain(dealer, frame)) return wrong_frame_count(1 + extra, 1);
  return proto::decode(bytes(frame));
}

std::optional<routed> receive_routed(zmq::socket_t& router, zmq::recv_flags flags) {
  zmq::message_t id;
  if (!router.recv(id, flags)) return std::nullopt;
  routed r{id.to_string(), wrong_frame_count(1, 2), std::nullopt, {}};
  if (!id.more()) return r;  // cannot happen on a ROUTER; kept total
  zmq::message_t frame;
  (void)router.recv(frame, zmq::recv_flags::none);
  r.cred = peer_of(frame);
  r.user_id = user_id_of(frame);
  if (std::size_t extra = drain(router, frame)) {
    r.msg = wrong_frame_count(2 + extra, 2);
    return r;
  }
  r.msg = proto::decode(bytes(frame));
  return r;
}

}  // namespace cuzk::net
