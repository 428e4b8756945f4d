// The client side of ZMTP with CURVE, byte by byte (libsodium), for tests
// that send what libzmq never would: a greeting, HELLO, INITIATE and MESSAGE
// bodies any of which a test may garble before it frames and sends them.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cuzk::test {

using bytes = std::vector<std::uint8_t>;
using key32 = std::array<std::uint8_t, 32>;

struct curve_client {
  key32 public_key{}, secret_key{}, server_key{};  // long-term C, c and the server's S
  key32 transient_public{}, transient_secret{}, server_transient{};
  bytes cookie;  // from WELCOME
  std::uint64_t nonce = 1, peer_nonce = 0;

  /* Keys from Z85 (client public, client secret, server public). */
  curve_client(std::string_view pub, std::string_view sec, std::string_view server_pub);

  static bytes greeting(std::string_view mechanism = "CURVE");
  /* A frame: flags 0x04 for a command, 0 for a message. */
  static bytes frame(std::uint8_t flags, std::span<const std::uint8_t> body);
  bytes hello();
  /* Opens WELCOME's body; false when it does not open. */
  bool welcome(std::span<const std::uint8_t> body);
  bytes initiate(std::string_view socket_type = "DEALER", std::string_view identity = "");
  bool ready(std::span<const std::uint8_t> body);
  /* MESSAGE body; flags 0x01 MORE, 0x02 COMMAND. */
  bytes seal(std::uint8_t flags, std::span<const std::uint8_t> body);
  /* The plaintext (flags first), or empty when it does not open. */
  bytes open(std::span<const std::uint8_t> body);
};

/* A ZMTP frame parsed off the front of `in` (flags, body), or false when incomplete; consumes it. */
bool take_frame(bytes& in, std::uint8_t& flags, bytes& body);

}  // namespace cuzk::test
