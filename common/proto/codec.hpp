// Frames ↔ messages. decode() never throws and never trusts its input: past
// protobuf's own parse it checks the size, the version, that exactly one body
// is set, and every field's presence and range (docs/protocol.md,
// "Validation"), so a message that comes out of it is safe to act on.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "proto/message.hpp"
#include "util/expected.hpp"

namespace cuzk::proto {

struct decode_error {
  error_code code = error_code::malformed;
  std::string reason;            // for people: which field, which rule
  std::uint64_t request_id = 0;  // the frame's, when it could be read (to echo)
};

util::expected<message, decode_error> decode(std::span<const std::uint8_t> frame) noexcept;

/* The Envelope bytes (version = protocol_version). Encodes whatever it is
   given, valid or not (tests build bad frames this way); check() first when
   the contents come from a person. */
std::vector<std::uint8_t> encode(const message& m);
inline std::vector<std::uint8_t> encode(body b, std::uint64_t request_id = 0) {
  return encode(message{request_id, std::move(b)});
}

/* The validation decode() applies after parsing: nullopt when m passes,
   otherwise the reason. */
std::optional<std::string> check(const message& m);

/* The Error reply to a frame that failed to decode. */
message error_message(const decode_error& e);

}  // namespace cuzk::proto
