// The server side of the CURVE mechanism (CurveZMQ, rfc.zeromq.org/spec/26,
// as ZMTP 3 carries it) with libsodium, one object per connection:
//   HELLO    C', Box[64 zeros](C'→S)                 → WELCOME Box[S' + cookie](S→C')
//   INITIATE cookie, Box[C + vouch + metadata](C'→S') → READY   Box[metadata](S'→C')
//   MESSAGE  Box[flags + body](C'→S'), one per frame, short nonces strictly increasing.
// The cookie is Box[C' + s'] under a key of this connection (crypto_secretbox).
// The identity it yields is the client's long-term key C, proven by the vouch
// Box[C' + S](C→S'); nothing else the peer says about itself is used.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "net/zmtp.hpp"

namespace cuzk::net {

using curve_key = std::array<std::uint8_t, 32>;

/* The server's long-term keypair (binary). */
struct curve_server_keys {
  curve_key public_key{}, secret_key{};
};
/* From Z85 (curve_keys.hpp); throws std::runtime_error with a sentence. */
curve_server_keys curve_server_keys_from_z85(std::string_view public_z85, std::string_view secret_z85);

/* A 24-byte nonce: a 16- or 8-byte prefix ("CurveZMQHELLO---", "WELCOME-") and the rest from `rest`. */
std::array<std::uint8_t, 24> curve_nonce(std::string_view prefix, const std::uint8_t* rest);

class curve_server {
 public:
  enum class state { hello, initiate, ready };
  /* What INITIATE proved: the client's long-term key and the socket type it declared. */
  struct initiated {
    curve_key client_key{};
    std::string socket_type;
  };

  explicit curve_server(const curve_server_keys& keys);
  ~curve_server();
  curve_server(const curve_server&) = delete;
  curve_server& operator=(const curve_server&) = delete;

  /* Each takes a command body (name size, name, data) and throws zmtp::protocol_error with a sentence on
     anything else; the returned bodies go in command frames (zmtp::command_frame). */
  std::vector<std::uint8_t> hello(std::span<const std::uint8_t> body);  // → WELCOME
  initiated initiate(std::span<const std::uint8_t> body);               // the vouch checked
  std::vector<std::uint8_t> ready(std::string_view socket_type);        // → READY
  /* An ERROR command body (plaintext, reason at most 255 bytes). */
  static std::vector<std::uint8_t> error(std::string_view reason);

  /* A MESSAGE body for a data frame: flags 0x01 MORE, 0x02 COMMAND. */
  std::vector<std::uint8_t> seal(std::uint8_t flags, std::span<const std::uint8_t> body);
  /* A peer's MESSAGE body opened (zmtp::reader::secure). */
  zmtp::opened open(std::span<const std::uint8_t> sealed);
  state at() const noexcept { return state_; }

 private:
  curve_server_keys keys_;
  state state_ = state::hello;
  curve_key client_transient_{}, transient_public_{}, transient_secret_{};
  std::array<std::uint8_t, 32> cookie_key_{}, shared_{};  // crypto_secretbox key; crypto_box_beforenm(C', s')
  std::uint64_t nonce_ = 1, peer_nonce_ = 0;
};

}  // namespace cuzk::net
