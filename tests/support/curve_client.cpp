#include "curve_client.hpp"

#include <sodium.h>
#include <zmq.h>

#include <cstring>
#include <stdexcept>

#include "net/curve_server.hpp"

namespace cuzk::test {

namespace {

using net::curve_nonce;
key32 z85(std::string_view k) {
  key32 b{};
  const std::string s(k);
  if (s.size() != 40 || !zmq_z85_decode(b.data(), s.c_str())) throw std::runtime_error("not a Z85 key");
  return b;
}
void made(int rc) {
  if (rc != 0) throw std::runtime_error("crypto_box_easy failed");
}

void property(bytes& out, std::string_view name, std::string_view value) {
  out.push_back(static_cast<std::uint8_t>(name.size()));
  out.insert(out.end(), name.begin(), name.end());
  for (int i = 3; i >= 0; --i) out.push_back(static_cast<std::uint8_t>(value.size() >> (8 * i)));
  out.insert(out.end(), value.begin(), value.end());
}

}  // namespace

curve_client::curve_client(std::string_view pub, std::string_view sec, std::string_view server_pub)
    : public_key(z85(pub)), secret_key(z85(sec)), server_key(z85(server_pub)) {
  if (sodium_init() < 0) throw std::runtime_error("sodium_init");
  if (crypto_box_keypair(transient_public.data(), transient_secret.data()) != 0)
    throw std::runtime_error("crypto_box_keypair");
}

bytes curve_client::greeting(std::string_view mechanism) {
  bytes g(64, 0);
  g[0] = 0xff;
  g[9] = 0x7f;
  g[10] = 3;
  g[11] = 1;
  std::memcpy(&g[12], mechanism.data(), std::min<std::size_t>(mechanism.size(), 20));
  return g;
}

bytes curve_client::frame(std::uint8_t flags, std::span<const std::uint8_t> body) {
  bytes f;
  if (body.size() > 255) {
    f.push_back(flags | 0x02);
    for (int i = 7; i >= 0; --i) f.push_back(static_cast<std::uint8_t>(body.size() >> (8 * i)));
  } else {
    f.push_back(flags);
    f.push_back(static_cast<std::uint8_t>(body.size()));
  }
  f.insert(f.end(), body.begin(), body.end());
  return f;
}

bytes curve_client::hello() {
  bytes h(200, 0);
  std::memcpy(h.data(), "\x05HELLO\x01\x00", 8);
  std::memcpy(h.data() + 80, transient_public.data(), 32);
  net::zmtp::put_be(h.data() + 112, nonce++, 8);
  const auto n = curve_nonce("CurveZMQHELLO---", h.data() + 112);
  std::uint8_t zeros[64] = {};
  made(crypto_box_easy(h.data() + 120, zeros, 64, n.data(), server_key.data(), transient_secret.data()));
  return h;
}

bool curve_client::welcome(std::span<const std::uint8_t> body) {
  if (body.size() != 168 || std::memcmp(body.data(), "\x07WELCOME", 8) != 0) return false;
  const auto n = curve_nonce("WELCOME-", body.data() + 8);
  std::uint8_t plain[128];
  if (crypto_box_open_easy(plain, body.data() + 24, 144, n.data(), server_key.data(), transient_secret.data()) != 0)
    return false;
  std::memcpy(server_transient.data(), plain, 32);
  cookie.assign(plain + 32, plain + 128);
  return true;
}

bytes curve_client::initiate(std::string_view socket_type, std::string_view identity) {
  // vouch: Box[C' + S](C→S')
  std::uint8_t vouch_nonce[16];
  randombytes_buf(vouch_nonce, 16);
  std::uint8_t vouch_plain[64];
  std::memcpy(vouch_plain, transient_public.data(), 32);
  std::memcpy(vouch_plain + 32, server_key.data(), 32);
  const auto vn = curve_nonce("VOUCH---", vouch_nonce);
  std::uint8_t vouch[80];
  made(crypto_box_easy(vouch, vouch_plain, 64, vn.data(), server_transient.data(), secret_key.data()));
  bytes plain(public_key.begin(), public_key.end());
  plain.insert(plain.end(), vouch_nonce, vouch_nonce + 16);
  plain.insert(plain.end(), vouch, vouch + 80);
  property(plain, "Socket-Type", socket_type);
  if (!identity.empty()) property(plain, "Identity", identity);
  bytes out(113 + plain.size() + 16);
  std::memcpy(out.data(), "\x08INITIATE", 9);
  std::memcpy(out.data() + 9, cookie.data(), std::min<std::size_t>(cookie.size(), 96));
  net::zmtp::put_be(out.data() + 105, nonce++, 8);
  const auto n = curve_nonce("CurveZMQINITIATE", out.data() + 105);
  made(crypto_box_easy(out.data() + 113, plain.data(), plain.size(), n.data(), server_transient.data(),
                       transient_secret.data()));
  return out;
}

bool curve_client::ready(std::span<const std::uint8_t> body) {
  if (body.size() < 14 + 16 || std::memcmp(body.data(), "\x05READY", 6) != 0) return false;
  const auto n = curve_nonce("CurveZMQREADY---", body.data() + 6);
  bytes plain(body.size() - 14 - 16);
  if (crypto_box_open_easy(plain.data(), body.data() + 14, body.size() - 14, n.data(), server_transient.data(),
                           transient_secret.data()) != 0)
    return false;
  peer_nonce = net::zmtp::get_be(body.data() + 6, 8);
  return true;
}

bytes curve_client::seal(std::uint8_t flags, std::span<const std::uint8_t> body) {
  bytes plain{flags};
  plain.insert(plain.end(), body.begin(), body.end());
  bytes m(16 + plain.size() + 16);
  std::memcpy(m.data(), "\x07MESSAGE", 8);
  net::zmtp::put_be(m.data() + 8, nonce++, 8);
  const auto n = curve_nonce("CurveZMQMESSAGEC", m.data() + 8);
  made(crypto_box_easy(m.data() + 16, plain.data(), plain.size(), n.data(), server_transient.data(),
                       transient_secret.data()));
  return m;
}

bytes curve_client::open(std::span<const std::uint8_t> body) {
  if (body.size() < 16 + 16 + 1 || std::memcmp(body.data(), "\x07MESSAGE", 8) != 0) return {};
  const auto n = curve_nonce("CurveZMQMESSAGES", body.data() + 8);
  bytes plain(body.size() - 32);
  if (crypto_box_open_easy(plain.data(), body.data() + 16, body.size() - 16, n.data(), server_transient.data(),
                           transient_secret.data()) != 0)
    return {};
  return plain;
}

bool take_frame(bytes& in, std::uint8_t& flags, bytes& body) {
  if (in.size() < 2) return false;
  flags = in[0];
  const bool is_long = flags & 0x02;
  const std::size_t head = is_long ? 9 : 2;
  if (in.size() < head) return false;
  std::uint64_t size = 0;
  if (is_long)
    for (int i = 1; i < 9; ++i) size = size << 8 | in[static_cast<std::size_t>(i)];
  else
    size = in[1];
  if (in.size() < head + size) return false;
  body.assign(in.begin() + static_cast<std::ptrdiff_t>(head), in.begin() + static_cast<std::ptrdiff_t>(head + size));
  in.erase(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(head + size));
  return true;
}

}  // namespace cuzk::test
