// The server side of ZMTP 3.1 (rfc.zeromq.org/spec/23 and /37), enough for
// libzmq DEALER clients: the 64-byte greeting, READY, PING/PONG heartbeats
// and message frames, with the NULL mechanism or CURVE (curve_server.hpp:
// the reader hands it the handshake commands, and opens each MESSAGE box
// with it once the handshake is done). The server speaks it on sockets it
// accepts itself, so a connection's identity is the connection (its
// SO_PEERCRED and a number the server gives it), never a routing id a peer
// chooses: a peer's "Identity" property is read and ignored.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace cuzk::net::zmtp {

inline constexpr std::size_t greeting_bytes = 64;

/* Sizes and nonces are big-endian: v's low `bytes` bytes at p, the most significant first; and back. */
void put_be(std::uint8_t* p, std::uint64_t v, int bytes);
std::uint64_t get_be(const std::uint8_t* p, int bytes);

/* signature (FF, 8 bytes of padding, 7F), version 3.1, the mechanism ("NULL", "CURVE"), as-server 1, filler. */
std::vector<std::uint8_t> server_greeting(std::string_view mechanism = "NULL");
/* A READY command announcing socket type `type` ("ROUTER"). */
std::vector<std::uint8_t> ready_command(std::string_view type);
/* A PONG command echoing a PING's context. */
std::vector<std::uint8_t> pong_command(std::span<const std::uint8_t> context);
/* One message frame: flags (MORE, LONG), size (1 or 8 bytes, big-endian), body. */
std::vector<std::uint8_t> message_frame(std::span<const std::uint8_t> body, bool more = false);
/* A command's body (name size, name, data) and its frame (the COMMAND flag). */
std::vector<std::uint8_t> command_body(std::string_view name, std::span<const std::uint8_t> data);
std::vector<std::uint8_t> command_frame(std::span<const std::uint8_t> body);
/* READY's and INITIATE's metadata: the Socket-Type property ("" when absent); throws protocol_error when malformed. */
std::string socket_type_of(std::span<const std::uint8_t> properties);
/* Metadata of one Socket-Type property. */
std::vector<std::uint8_t> socket_type_property(std::string_view type);

/* What the reader made of the bytes so far. */
struct event {
  enum kind_t { ready, ping, message, handshake } kind;
  std::vector<std::vector<std::uint8_t>> frames;  // message: its frames; ping: {context}; handshake: {command body}
  std::string socket_type;                        // ready: the peer's Socket-Type
};

/* Incremental decoder of a peer's byte stream. feed() appends bytes; next()
   returns the next complete event, nullopt when more bytes are needed, and
   throws protocol_error on anything malformed or over the size limits. */
class protocol_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/* A MESSAGE box opened: its flags (0x01 MORE, 0x02 COMMAND) and its plaintext. */
struct opened {
  std::uint8_t flags = 0;
  std::vector<std::uint8_t> body;
};
using unsealer = std::function<opened(std::span<const std::uint8_t> sealed)>;

class reader {
 public:
  /* max_message: the largest message (all its frames) accepted; max_frames: frames per message; mechanism: the
     one the peer's greeting must name. Under NULL the reader handles READY; under any other mechanism it returns
     each command before the handshake as a `handshake` event, and after secure() opens every frame with `open`. */
  explicit reader(std::size_t max_message, std::size_t max_frames = 16, std::string_view mechanism = "NULL");
  void feed(std::span<const std::uint8_t> bytes);
  std::optional<event> next();
  /* The mechanism's handshake is done: from now on every frame is a box `open` opens (it throws protocol_error). */
  void secure(unsealer open);
  bool greeted() const noexcept { return greeted_; }
  bool handshaken() const noexcept { return ready_; }
  /* Bytes fed and not consumed yet. */
  std::size_t buffered() const noexcept { return buf_.size() - pos_; }

 private:
  std::optional<event> command(std::span<const std::uint8_t> body);
  std::optional<event> plain(std::uint8_t flags, std::span<const std::uint8_t> body);
  std::vector<std::uint8_t> buf_;
  std::size_t pos_ = 0;
  std::size_t max_message_, max_frames_;
  std::string mechanism_;
  unsealer open_;
  bool greeted_ = false, ready_ = false;
  std::vector<std::vector<std::uint8_t>> partial_;  // frames of a message whose last frame has not come
  std::size_t partial_bytes_ = 0;
};

}  // namespace cuzk::net::zmtp
