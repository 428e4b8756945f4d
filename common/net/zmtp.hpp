// The server side of ZMTP 3.1 with the NULL mechanism (rfc.zeromq.org/spec/23
// and /37), enough for libzmq DEALER clients: the 64-byte greeting, READY,
// PING/PONG heartbeats and message frames. The server speaks it on sockets it
// accepts itself, so a connection's identity is the connection (its
// SO_PEERCRED and a number the server gives it), never a routing id a peer
// chooses: a peer's "Identity" property is read and ignored.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace cuzk::net::zmtp {

inline constexpr std::size_t greeting_bytes = 64;

/* signature (FF, 8 bytes of padding, 7F), version 3.1, "NULL", as-server 1, filler. */
std::vector<std::uint8_t> server_greeting();
/* A READY command announcing socket type `type` ("ROUTER"). */
std::vector<std::uint8_t> ready_command(std::string_view type);
/* A PONG command echoing a PING's context. */
std::vector<std::uint8_t> pong_command(std::span<const std::uint8_t> context);
/* One message frame: flags (MORE, LONG), size (1 or 8 bytes, big-endian), body. */
std::vector<std::uint8_t> message_frame(std::span<const std::uint8_t> body, bool more = false);

/* What the reader made of the bytes so far. */
struct event {
  enum kind_t { ready, ping, message } kind;
  std::vector<std::vector<std::uint8_t>> frames;  // message: its frames; ping: {context}
  std::string socket_type;                        // ready: the peer's Socket-Type
};

/* Incremental decoder of a peer's byte stream. feed() appends bytes; next()
   returns the next complete event, nullopt when more bytes are needed, and
   throws protocol_error on anything malformed or over the size limits. */
class protocol_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class reader {
 public:
  /* max_message: the largest message (all its frames) accepted; max_frames: frames per message. */
  explicit reader(std::size_t max_message, std::size_t max_frames = 16) : max_message_(max_message), max_frames_(max_frames) {}
  void feed(std::span<const std::uint8_t> bytes);
  std::optional<event> next();
  bool greeted() const noexcept { return greeted_; }
  bool handshaken() const noexcept { return ready_; }
  /* Bytes fed and not consumed yet. */
  std::size_t buffered() const noexcept { return buf_.size() - pos_; }

 private:
  std::optional<event> command(std::span<const std::uint8_t> body);
  std::vector<std::uint8_t> buf_;
  std::size_t pos_ = 0;
  std::size_t max_message_, max_frames_;
  bool greeted_ = false, ready_ = false;
  std::vector<std::vector<std::uint8_t>> partial_;  // frames of a message whose last frame has not come
  std::size_t partial_bytes_ = 0;
};

}  // namespace cuzk::net::zmtp
