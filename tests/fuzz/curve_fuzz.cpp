// libFuzzer target: the server side of ZMTP with CURVE (net/zmtp.hpp,
// net/curve_server.hpp) driven in process. The first byte picks how far a
// valid client gets before the input takes over: 0 the raw stream, 1 frames
// after a valid greeting, 2 an INITIATE garbled by the input after a valid
// HELLO, 3 frames and sealed MESSAGEs after a complete handshake. Anything
// may be refused (protocol_error); nothing may crash, leak or be read out of
// bounds.
#include <sodium.h>
#include <zmq.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "curve_client.hpp"
#include "net/curve_server.hpp"
#include "net/zmtp.hpp"

namespace {

using namespace cuzk;
using bytes = std::vector<std::uint8_t>;

struct fixed_keys {
  net::curve_server_keys server;
  std::string server_pub, client_pub, client_sec;
  fixed_keys() {
    if (sodium_init() < 0) __builtin_trap();
    std::uint8_t seed[32] = {1}, sec[32], pub[32];
    crypto_box_seed_keypair(server.public_key.data(), server.secret_key.data(), seed);
    seed[0] = 2;
    crypto_box_seed_keypair(pub, sec, seed);
    server_pub = z85(server.public_key.data());
    client_pub = z85(pub);
    client_sec = z85(sec);
  }
  static std::string z85(const std::uint8_t* k) {
    char s[41];
    zmq_z85_encode(s, k, 32);
    return s;
  }
};

/* Feeds `in` to the reader and answers what a server would; false once refused. */
bool drive(net::zmtp::reader& r, net::curve_server& s, test::curve_client* c, const bytes& in) {
  try {
    r.feed(in);
    while (auto e = r.next()) {
      if (e->kind != net::zmtp::event::handshake) continue;
      if (s.at() == net::curve_server::state::hello) {
        const auto w = s.hello(e->frames[0]);
        if (c) (void)c->welcome(w);
        continue;
      }
      (void)s.initiate(e->frames[0]);
      const auto ready = s.ready("ROUTER");
      if (c) (void)c->ready(ready);
      r.secure([&s](std::span<const std::uint8_t> b) { return s.open(b); });
    }
    return true;
  } catch (const net::zmtp::protocol_error&) {
    return false;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const fixed_keys keys;
  if (size == 0) return 0;
  const int mode = data[0] % 4;
  const bytes rest(data + 1, data + size);
  net::curve_server s(keys.server);
  net::zmtp::reader r(1 << 16, 16, "CURVE");
  test::curve_client c(keys.client_pub, keys.client_sec, keys.server_pub);
  if (mode == 0) {
    drive(r, s, &c, rest);
    return 0;
  }
  if (!drive(r, s, &c, test::curve_client::greeting())) __builtin_trap();
  if (mode == 1) {
    drive(r, s, &c, rest);
    return 0;
  }
  if (!drive(r, s, &c, test::curve_client::frame(0x04, c.hello()))) __builtin_trap();
  if (mode == 2) {  // the input XORed into a valid INITIATE, its first byte the length to keep
    auto i = c.initiate("DEALER", "fuzz");
    if (!rest.empty()) {
      i.resize(std::min<std::size_t>(i.size(), 9 + rest[0] * 2u));
      for (std::size_t k = 1; k < rest.size(); ++k) i[k % i.size()] ^= rest[k];
    }
    drive(r, s, &c, test::curve_client::frame(0x04, i));
    return 0;
  }
  if (!drive(r, s, &c, test::curve_client::frame(0x04, c.initiate()))) __builtin_trap();
  // mode 3: odd first byte: the input as raw frames; even: the input sealed, flags from its first byte.
  if (rest.empty() || rest[0] % 2) {
    drive(r, s, &c, rest);
  } else {
    const bytes body(rest.begin() + 1, rest.end());
    auto sealed = c.seal(static_cast<std::uint8_t>(rest[0] >> 1), body);
    drive(r, s, &c, test::curve_client::frame(0, sealed));
  }
  return 0;
}
