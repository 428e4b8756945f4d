#include "net/curve_server.hpp"

#include <sodium.h>
#include <zmq.h>

#include <cstring>
#include <stdexcept>

namespace cuzk::net {

namespace {

using zmtp::protocol_error;
using bytes = std::vector<std::uint8_t>;
constexpr std::size_t mac = crypto_box_MACBYTES;  // 16

std::array<std::uint8_t, 24> short_nonce(std::string_view prefix, std::uint64_t v) {
  std::uint8_t b[8];
  zmtp::put_be(b, v, 8);
  return curve_nonce(prefix, b);
}

bool named(std::span<const std::uint8_t> body, std::string_view name) {
  return body.size() >= 1 + name.size() && body[0] == name.size() &&
         std::memcmp(body.data() + 1, name.data(), name.size()) == 0;
}

/* A box this side makes fails only on a weak key the peer gave: the connection ends. */
void made(int rc) {
  if (rc != 0) throw protocol_error("a box that cannot be made for this peer's key");
}

void init_sodium() {
  if (sodium_init() < 0) throw std::runtime_error("libsodium cannot be initialized");
}

}  // namespace

std::array<std::uint8_t, 24> curve_nonce(std::string_view prefix, const std::uint8_t* rest) {
  std::array<std::uint8_t, 24> n{};
  std::memcpy(n.data(), prefix.data(), prefix.size());
  std::memcpy(n.data() + prefix.size(), rest, 24 - prefix.size());
  return n;
}

curve_server_keys curve_server_keys_from_z85(std::string_view public_z85, std::string_view secret_z85) {
  curve_server_keys k;
  const std::string pub(public_z85), sec(secret_z85);
  if (pub.size() != 40 || sec.size() != 40 || !zmq_z85_decode(k.public_key.data(), pub.c_str()) ||
      !zmq_z85_decode(k.secret_key.data(), sec.c_str()))
    throw std::runtime_error("a CURVE key is 40 characters of Z85");
  init_sodium();
  curve_key derived{};
  if (crypto_scalarmult_base(derived.data(), k.secret_key.data()) != 0)
    throw std::runtime_error("not a CURVE secret key");
  if (derived != k.public_key) throw std::runtime_error("the public key is not the secret key's");
  return k;
}

curve_server::curve_server(const curve_server_keys& keys) : keys_(keys) {
  init_sodium();
  if (crypto_box_keypair(transient_public_.data(), transient_secret_.data()) != 0)
    throw std::runtime_error("crypto_box_keypair failed");
  randombytes_buf(cookie_key_.data(), cookie_key_.size());
}

curve_server::~curve_server() {
  sodium_memzero(transient_secret_.data(), transient_secret_.size());
  sodium_memzero(cookie_key_.data(), cookie_key_.size());
  sodium_memzero(shared_.data(), shared_.size());
}

// HELLO: name (6), version 1.0 (2), 72 zeros, C' (32), short nonce (8), Box[64 zeros](C'→S) (80) = 200 bytes.
bytes curve_server::hello(std::span<const std::uint8_t> body) {
  if (state_ != state::hello) throw protocol_error("a HELLO after the handshake began");
  if (!named(body, "HELLO")) throw protocol_error("expected HELLO");
  if (body.size() != 200) throw protocol_error("a HELLO of " + std::to_string(body.size()) + " bytes (it has 200)");
  if (body[6] != 1 || body[7] != 0)
    throw protocol_error("CURVE version " + std::to_string(body[6]) + "." + std::to_string(body[7]) +
                         " (1.0 is served)");
  std::memcpy(client_transient_.data(), body.data() + 80, 32);
  const auto n = curve_nonce("CurveZMQHELLO---", body.data() + 112);
  std::uint8_t zeros[64];
  if (crypto_box_open_easy(zeros, body.data() + 120, 80, n.data(), client_transient_.data(), keys_.secret_key.data()) !=
      0)
    throw protocol_error("a HELLO that does not open (not this server's key?)");
  peer_nonce_ = zmtp::get_be(body.data() + 112, 8);

  // cookie = nonce (16), secretbox[C' + s'](K) (80)
  std::uint8_t cookie[96];
  randombytes_buf(cookie, 16);
  std::uint8_t plain[64];
  std::memcpy(plain, client_transient_.data(), 32);
  std::memcpy(plain + 32, transient_secret_.data(), 32);
  const auto cn = curve_nonce("COOKIE--", cookie);
  made(crypto_secretbox_easy(cookie + 16, plain, 64, cn.data(), cookie_key_.data()));
  sodium_memzero(plain, sizeof plain);

  // WELCOME: name (8), nonce (16), Box[S' + cookie](S→C') (144)
  bytes w(168);
  std::memcpy(w.data(), "\x07WELCOME", 8);
  randombytes_buf(w.data() + 8, 16);
  std::uint8_t welcome[128];
  std::memcpy(welcome, transient_public_.data(), 32);
  std::memcpy(welcome + 32, cookie, 96);
  const auto wn = curve_nonce("WELCOME-", w.data() + 8);
  made(crypto_box_easy(w.data() + 24, welcome, 128, wn.data(), client_transient_.data(), keys_.secret_key.data()));
  state_ = state::initiate;
  return w;
}

// INITIATE: name (9), cookie (96), short nonce (8), Box[C (32) + vouch nonce (16) + vouch (80) + metadata](C'→S').
curve_server::initiated curve_server::initiate(std::span<const std::uint8_t> body) {
  if (state_ != state::initiate)
    throw protocol_error(state_ == state::hello ? "an INITIATE before HELLO" : "a second INITIATE");
  if (!named(body, "INITIATE")) throw protocol_error("expected INITIATE");
  if (body.size() < 9 + 96 + 8 + 128 + mac)
    throw protocol_error("a truncated INITIATE of " + std::to_string(body.size()) + " bytes");
  std::uint8_t cookie[64];
  const auto cn = curve_nonce("COOKIE--", body.data() + 9);
  if (crypto_secretbox_open_easy(cookie, body.data() + 25, 80, cn.data(), cookie_key_.data()) != 0 ||
      sodium_memcmp(cookie, client_transient_.data(), 32) != 0 ||
      sodium_memcmp(cookie + 32, transient_secret_.data(), 32) != 0)
    throw protocol_error("an INITIATE with a cookie this connection did not give");
  sodium_memzero(cookie, sizeof cookie);
  const std::uint64_t short_n = zmtp::get_be(body.data() + 105, 8);
  if (short_n <= peer_nonce_) throw protocol_error("an INITIATE whose nonce does not increase");
  const auto in = curve_nonce("CurveZMQINITIATE", body.data() + 105);
  const std::size_t boxed = body.size() - 113;
  bytes plain(boxed - mac);
  if (crypto_box_open_easy(plain.data(), body.data() + 113, boxed, in.data(), client_transient_.data(),
                           transient_secret_.data()) != 0)
    throw protocol_error("an INITIATE box that does not open");
  initiated r;
  std::memcpy(r.client_key.data(), plain.data(), 32);
  const auto vn = curve_nonce("VOUCH---", plain.data() + 32);
  std::uint8_t vouch[64];
  if (crypto_box_open_easy(vouch, plain.data() + 48, 80, vn.data(), r.client_key.data(), transient_secret_.data()) != 0)
    throw protocol_error("an INITIATE whose vouch does not open with the key it names");
  if (sodium_memcmp(vouch, client_transient_.data(), 32) != 0 ||
      sodium_memcmp(vouch + 32, keys_.public_key.data(), 32) != 0)
    throw protocol_error("an INITIATE whose vouch names another connection or server");
  r.socket_type = zmtp::socket_type_of(std::span(plain).subspan(128));
  if (crypto_box_beforenm(shared_.data(), client_transient_.data(), transient_secret_.data()) != 0)
    throw protocol_error("a client transient key that is a weak point");
  peer_nonce_ = short_n;
  state_ = state::ready;
  return r;
}

// READY: name (6), short nonce (8), Box[metadata](S'→C').
bytes curve_server::ready(std::string_view socket_type) {
  const auto meta = zmtp::socket_type_property(socket_type);
  bytes r(6 + 8 + meta.size() + mac);
  std::memcpy(r.data(), "\x05READY", 6);
  const std::uint64_t v = nonce_++;
  zmtp::put_be(r.data() + 6, v, 8);
  const auto n = short_nonce("CurveZMQREADY---", v);
  made(crypto_box_easy_afternm(r.data() + 14, meta.data(), meta.size(), n.data(), shared_.data()));
  return r;
}

bytes curve_server::error(std::string_view reason) {
  const auto n = std::min<std::size_t>(reason.size(), 255);
  bytes e(7 + n);
  std::memcpy(e.data(),
              "\x05"
              "ERROR",
              6);
  e[6] = static_cast<std::uint8_t>(n);
  if (n) std::memcpy(e.data() + 7, reason.data(), n);
  return e;
}

// MESSAGE: name (8), short nonce (8), Box[flags (1) + body](S'→C').
bytes curve_server::seal(std::uint8_t flags, std::span<const std::uint8_t> body) {
  bytes plain(1 + body.size());
  plain[0] = flags;
  if (!body.empty()) std::memcpy(plain.data() + 1, body.data(), body.size());
  bytes m(16 + plain.size() + mac);
  std::memcpy(m.data(), "\x07MESSAGE", 8);
  const std::uint64_t v = nonce_++;
  zmtp::put_be(m.data() + 8, v, 8);
  const auto n = short_nonce("CurveZMQMESSAGES", v);
  made(crypto_box_easy_afternm(m.data() + 16, plain.data(), plain.size(), n.data(), shared_.data()));
  return m;
}

zmtp::opened curve_server::open(std::span<const std::uint8_t> sealed) {
  if (state_ != state::ready) throw protocol_error("a MESSAGE before the handshake");
  if (!named(sealed, "MESSAGE")) throw protocol_error("expected a MESSAGE");
  if (sealed.size() < 16 + mac + 1) throw protocol_error("a truncated MESSAGE");
  const std::uint64_t v = zmtp::get_be(sealed.data() + 8, 8);
  if (v <= peer_nonce_) throw protocol_error("a MESSAGE whose nonce does not increase");
  const auto n = short_nonce("CurveZMQMESSAGEC", v);
  bytes plain(sealed.size() - 16 - mac);
  if (crypto_box_open_easy_afternm(plain.data(), sealed.data() + 16, sealed.size() - 16, n.data(), shared_.data()) != 0)
    throw protocol_error("a MESSAGE box that does not open");
  peer_nonce_ = v;
  zmtp::opened o;
  o.flags = plain[0];
  if (o.flags & ~0x03) throw protocol_error("a MESSAGE with reserved flags");
  o.body.assign(plain.begin() + 1, plain.end());
  return o;
}

}  // namespace cuzk::net
