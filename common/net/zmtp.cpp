#include "net/zmtp.hpp"

#include <algorithm>
#include <cstring>

namespace cuzk::net::zmtp {

namespace {

constexpr std::uint8_t flag_more = 0x01, flag_long = 0x02, flag_command = 0x04;
constexpr std::size_t max_command_bytes = 4096;          // READY with its properties, PING with its context, INITIATE
constexpr std::size_t sealed_overhead = 8 + 8 + 16 + 1;  // "\x07MESSAGE", nonce, MAC, flags
constexpr std::uint8_t sealed_more = 0x01, sealed_command = 0x02;

// Appends with resize + memcpy: GCC 12's -Warray-bounds misreads vector::insert of a few bytes.
void append(std::vector<std::uint8_t>& out, const void* p, std::size_t n) {
  const std::size_t at = out.size();
  out.resize(at + n);
  if (n) std::memcpy(out.data() + at, p, n);
}

void put_be(std::vector<std::uint8_t>& out, std::uint64_t v, int bytes) {
  std::uint8_t b[8];
  zmtp::put_be(b, v, bytes);
  append(out, b, static_cast<std::size_t>(bytes));
}

std::vector<std::uint8_t> frame(std::uint8_t flags, std::span<const std::uint8_t> body) {
  std::vector<std::uint8_t> out;
  out.reserve(body.size() + 9);
  const bool is_long = body.size() > 255;
  const std::uint8_t f = is_long ? flags | flag_long : flags;
  append(out, &f, 1);
  put_be(out, body.size(), is_long ? 8 : 1);
  append(out, body.data(), body.size());
  return out;
}

}  // namespace

void put_be(std::uint8_t* p, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * (bytes - 1 - i)));
}

std::uint64_t get_be(const std::uint8_t* p, int bytes) {
  std::uint64_t v = 0;
  for (int i = 0; i < bytes; ++i) v = v << 8 | p[i];
  return v;
}

std::vector<std::uint8_t> server_greeting(std::string_view mechanism) {
  std::vector<std::uint8_t> g(greeting_bytes, 0);
  g[0] = 0xff;
  g[9] = 0x7f;
  g[10] = 3;  // major
  g[11] = 1;  // minor: 3.1 (PING/PONG)
  std::memcpy(&g[12], mechanism.data(), std::min<std::size_t>(mechanism.size(), 20));
  g[32] = 1;  // as-server
  return g;
}

std::vector<std::uint8_t> command_body(std::string_view name, std::span<const std::uint8_t> data) {
  std::vector<std::uint8_t> b;
  put_be(b, name.size(), 1);
  append(b, name.data(), name.size());
  append(b, data.data(), data.size());
  return b;
}

std::vector<std::uint8_t> command_frame(std::span<const std::uint8_t> body) { return frame(flag_command, body); }

std::vector<std::uint8_t> socket_type_property(std::string_view type) {
  std::vector<std::uint8_t> props;
  constexpr std::string_view name = "Socket-Type";
  put_be(props, name.size(), 1);
  append(props, name.data(), name.size());
  put_be(props, type.size(), 4);
  append(props, type.data(), type.size());
  return props;
}

std::string socket_type_of(std::span<const std::uint8_t> data) {
  std::string type;
  while (!data.empty()) {  // properties: name-size, name, value-size (4, big-endian), value
    const std::size_t n = data[0];
    if (data.size() < 1 + n + 4) throw protocol_error("a truncated metadata property");
    const std::string key(data.begin() + 1, data.begin() + 1 + static_cast<std::ptrdiff_t>(n));
    const std::uint64_t v = get_be(data.data() + 1 + n, 4);
    if (data.size() < 1 + n + 4 + v) throw protocol_error("a truncated metadata property value");
    if (key == "Socket-Type")
      type.assign(data.begin() + static_cast<std::ptrdiff_t>(1 + n + 4),
                  data.begin() + static_cast<std::ptrdiff_t>(1 + n + 4 + v));
    data = data.subspan(1 + n + 4 + v);
  }
  return type;
}

std::vector<std::uint8_t> ready_command(std::string_view type) {
  return frame(flag_command, command_body("READY", socket_type_property(type)));
}

std::vector<std::uint8_t> pong_command(std::span<const std::uint8_t> context) {
  return frame(flag_command, command_body("PONG", context));
}

std::vector<std::uint8_t> message_frame(std::span<const std::uint8_t> body, bool more) {
  return frame(more ? flag_more : 0, body);
}

void reader::feed(std::span<const std::uint8_t> bytes) {
  if (pos_ && pos_ >= buf_.size() / 2) {  // drop what was consumed before growing
    buf_.erase(buf_.begin(), buf_.begin() + static_cast<std::ptrdiff_t>(pos_));
    pos_ = 0;
  }
  buf_.insert(buf_.end(), bytes.begin(), bytes.end());
}

reader::reader(std::size_t max_message, std::size_t max_frames, std::string_view mechanism)
    : max_message_(max_message), max_frames_(max_frames), mechanism_(mechanism) {}

void reader::secure(unsealer open) {
  open_ = std::move(open);
  ready_ = true;
}

std::optional<event> reader::next() {
  for (;;) {
    const std::uint8_t* p = buf_.data() + pos_;
    const std::size_t have = buf_.size() - pos_;
    if (!greeted_) {
      if (have >= 1 && p[0] != 0xff) throw protocol_error("not a ZMTP greeting (first byte is not 0xFF)");
      if (have >= 10 && !(p[9] & 0x01)) throw protocol_error("not a ZMTP 2.0+ greeting");
      if (have >= 11 && p[10] < 3)
        throw protocol_error("ZMTP version " + std::to_string(p[10]) + " is not served (3.x is)");
      if (have < greeting_bytes) return std::nullopt;
      char wanted[20] = {};
      std::memcpy(wanted, mechanism_.data(), std::min<std::size_t>(mechanism_.size(), 20));
      if (std::memcmp(p + 12, wanted, 20) != 0)
        throw protocol_error("only the " + mechanism_ + " security mechanism is served on this endpoint");
      greeted_ = true;
      pos_ += greeting_bytes;
      continue;
    }
    if (have < 2) return std::nullopt;
    const std::uint8_t flags = p[0];
    if (flags & ~(flag_more | flag_long | flag_command)) throw protocol_error("reserved frame flags set");
    const bool is_long = flags & flag_long;
    const std::size_t head = is_long ? 9 : 2;
    if (have < head) return std::nullopt;
    const std::uint64_t size = is_long ? get_be(p + 1, 8) : p[1];
    const bool is_command = flags & flag_command;
    const bool sealed = open_ != nullptr;
    const std::size_t room = max_message_ - std::min(max_message_, partial_bytes_) + (sealed ? sealed_overhead : 0);
    if (is_command && !sealed && size > max_command_bytes)
      throw protocol_error("a command of " + std::to_string(size) + " bytes");
    if ((!is_command || sealed) && size > room)
      throw protocol_error("a message over the limit of " + std::to_string(max_message_) + " bytes");
    if (!is_command && !ready_)
      throw protocol_error(mechanism_ == "NULL" ? "a message before the READY command"
                                                : "a message before the handshake");
    if (have < head + size) return std::nullopt;
    std::span<const std::uint8_t> body(p + head, static_cast<std::size_t>(size));
    pos_ += head + static_cast<std::size_t>(size);
    if (!sealed) {
      if (is_command && (flags & flag_more)) throw protocol_error("a command with the MORE flag");
      if (is_command && !ready_ && mechanism_ != "NULL")
        return event{event::handshake, {std::vector<std::uint8_t>(body.begin(), body.end())}, {}};
      if (auto e = plain(flags, body)) return e;
      continue;
    }
    if (flags & flag_more) throw protocol_error("a MESSAGE box with the MORE flag");
    auto o = open_(body);
    const std::uint8_t inner = (o.flags & sealed_more ? flag_more : 0) | (o.flags & sealed_command ? flag_command : 0);
    if ((o.flags & sealed_command) && o.body.size() > max_command_bytes)
      throw protocol_error("a command of " + std::to_string(o.body.size()) + " bytes");
    if (auto e = plain(inner, o.body)) return e;
  }
}

std::optional<event> reader::plain(std::uint8_t flags, std::span<const std::uint8_t> body) {
  if (flags & flag_command) {
    if (flags & flag_more) throw protocol_error("a command with the MORE flag");
    return command(body);
  }
  if (body.size() > max_message_ - std::min(max_message_, partial_bytes_))
    throw protocol_error("a message over the limit of " + std::to_string(max_message_) + " bytes");
  if (partial_.size() == max_frames_)
    throw protocol_error("more than " + std::to_string(max_frames_) + " frames in a message");
  partial_.emplace_back(body.begin(), body.end());
  partial_bytes_ += body.size();
  if (flags & flag_more) return std::nullopt;
  event e{event::message, std::move(partial_), {}};
  partial_.clear();
  partial_bytes_ = 0;
  return e;
}

std::optional<event> reader::command(std::span<const std::uint8_t> body) {
  if (body.empty() || body[0] + 1u > body.size()) throw protocol_error("a command with a truncated name");
  const std::string name(body.begin() + 1, body.begin() + 1 + body[0]);
  auto data = body.subspan(1 + body[0]);
  if (!ready_) {
    if (name != "READY") throw protocol_error("expected READY, got the command '" + name + "'");
    event e{event::ready, {}, socket_type_of(data)};
    ready_ = true;
    return e;
  }
  if (name == "PING") {
    if (data.size() < 2 || data.size() > 2 + 16) throw protocol_error("a malformed PING");
    return event{event::ping, {std::vector<std::uint8_t>(data.begin() + 2, data.end())}, {}};
  }
  return std::nullopt;  // PONG and commands this side does not use
}

}  // namespace cuzk::net::zmtp
