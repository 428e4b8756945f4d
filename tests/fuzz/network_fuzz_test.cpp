// A bounded fuzz of the network endpoint of a real server process (label
// fuzz): connections that send malformed greetings, another mechanism, huge
// frame sizes, truncated or garbled HELLOs, INITIATEs with bad boxes, sealed
// MESSAGEs garbled or replayed after a complete handshake, random frames.
// Between them a legitimate CURVE client (libzmq, the client library) must be
// served, and the server must stay alive. The seed is printed (CUZK_TEST_SEED
// replays a run).
#include <gtest/gtest.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <random>

#include "curve_client.hpp"
#include "harness.hpp"
#include "net/curve_keys.hpp"
#include "seed.hpp"

namespace cuzk::test {
namespace {

using namespace std::chrono_literals;

struct connection {
  int fd = -1;
  bytes in;
  explicit connection(unsigned short port) {
    fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    ::inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
      ::close(fd);
      fd = -1;
    }
  }
  ~connection() {
    if (fd >= 0) ::close(fd);
  }
  void put(const bytes& b) {
    if (fd >= 0) (void)::send(fd, b.data(), b.size(), MSG_NOSIGNAL);
  }
  /* The next frame's body within `limit` (after skipping the 64-byte greeting once), or false. */
  bool frame(bytes& body, std::chrono::milliseconds limit, bool& greeted) {
    const auto end = std::chrono::steady_clock::now() + limit;
    for (;;) {
      if (!greeted && in.size() >= 64) {
        in.erase(in.begin(), in.begin() + 64);
        greeted = true;
      }
      std::uint8_t flags = 0;
      if (greeted && take_frame(in, flags, body)) return true;
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - std::chrono::steady_clock::now());
      if (left <= 0ms || fd < 0) return false;
      pollfd p{fd, POLLIN, 0};
      if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) return false;
      std::uint8_t buf[4096];
      const auto n = ::recv(fd, buf, sizeof buf, 0);
      if (n <= 0) return false;
      in.insert(in.end(), buf, buf + n);
    }
  }
};

bytes random_bytes(std::mt19937_64& g, std::size_t n) {
  bytes b(n);
  for (auto& x : b) x = static_cast<std::uint8_t>(g());
  return b;
}

void garble(std::mt19937_64& g, bytes& b) {
  if (b.empty()) return;
  switch (g() % 3) {
    case 0:
      b[g() % b.size()] ^= static_cast<std::uint8_t>(1u << (g() % 8));
      break;
    case 1:
      b.resize(g() % b.size());
      break;
    default:
      for (int i = 0; i < 4; ++i) b[g() % b.size()] = static_cast<std::uint8_t>(g());
  }
}

TEST(NetworkFuzz, TheEndpointSurvivesMalformedHandshakesAndFramesAndKeepsServingALegitimateClient) {
  service svc({"2x4096"});
  const auto d = svc.dir();
  fs::create_directories(d / "clients.d");
  for (const char* who : {"server", "alice", "mallory"})
    ASSERT_EQ(
        std::system(
            (cli_bin() + " keygen --out " + (d / (std::string(who) + ".key")).string() + " > /dev/null 2>&1").c_str()),
        0);
  fs::copy_file(d / "alice.key.pub", d / "clients.d" / "alice.pub");
  const auto server_keys = net::read_curve_secret(d / "server.key"), alice = net::read_curve_secret(d / "alice.key"),
             mallory = net::read_curve_secret(d / "mallory.key");
  auto server =
      svc.start_server({}, {"--network-endpoint", "tcp://127.0.0.1:*", "--server-key", (d / "server.key").string(),
                            "--clients-dir", (d / "clients.d").string(), "--network-handshake-timeout", "1"});
  const auto ep = network_endpoint(svc);
  ASSERT_FALSE(ep.empty()) << server_logs(svc);
  const auto port = static_cast<unsigned short>(std::stoul(ep.substr(ep.rfind(':') + 1)));
  client::options o;
  o.timeout = 5s;
  o.attempts = 1;
  o.curve = client::curve_keys{alice.public_key, alice.secret_key, server_keys.public_key};
  auto g = rng(37);
  std::cout << "network fuzz: seed " << seed() << std::endl;
  const auto end = std::chrono::steady_clock::now() + 5s;
  int n = 0;
  for (; n < 2000 && std::chrono::steady_clock::now() < end; ++n) {
    connection c(port);
    ASSERT_GE(c.fd, 0) << "connect " << n << " failed:\n" << server_logs(svc);
    const bool authorized = g() % 2;
    curve_client me(authorized ? alice.public_key : mallory.public_key,
                    authorized ? alice.secret_key : mallory.secret_key, server_keys.public_key);
    bool greeted = false;
    bytes body;
    const auto kind = g() % 8;
    switch (kind) {
      case 0:
        c.put(random_bytes(g, g() % 300));
        break;
      case 1: {
        auto gr = curve_client::greeting();
        garble(g, gr);
        c.put(gr);
        break;
      }
      case 2:
        c.put(curve_client::greeting(g() % 2 ? "NULL" : "PLAIN"));
        break;
      case 3: {  // a frame header claiming up to 2^64 bytes
        bytes h{static_cast<std::uint8_t>(g() % 2 ? 0x02 : 0x06)};
        for (int i = 0; i < 8; ++i) h.push_back(static_cast<std::uint8_t>(i < 2 ? g() % 256 : g()));
        c.put(curve_client::greeting());
        c.put(h);
        c.put(random_bytes(g, g() % 200));
        break;
      }
      case 4: {
        auto h = me.hello();
        garble(g, h);
        c.put(curve_client::greeting());
        c.put(curve_client::frame(0x04, h));
        break;
      }
      case 5:
      case 6: {
        c.put(curve_client::greeting());
        c.put(curve_client::frame(0x04, me.hello()));
        if (!c.frame(body, 2000ms, greeted) || !me.welcome(body)) {
          ADD_FAILURE() << "no WELCOME for a valid HELLO (connection " << n << ")";
          break;
        }
        auto init = me.initiate("DEALER", "fuzz-id");
        if (kind == 5) {
          garble(g, init);
          c.put(curve_client::frame(0x04, init));
          break;
        }
        c.put(curve_client::frame(0x04, init));
        if (!authorized) break;
        if (!c.frame(body, 2000ms, greeted) || !me.ready(body)) {
          ADD_FAILURE() << "no READY for alice's INITIATE (connection " << n << ")";
          break;
        }
        auto m = me.seal(0, random_bytes(g, g() % 64));
        switch (g() % 3) {
          case 0:
            garble(g, m);
            break;
          case 1:
            c.put(curve_client::frame(0, m));
            break;  // then the same again: a replayed nonce
          default:
            m = random_bytes(g, g() % 100);
        }
        c.put(curve_client::frame(static_cast<std::uint8_t>(g() % 2 ? 0 : 0x04), m));
        break;
      }
      default:
        c.put(curve_client::greeting());
        for (int i = 0, k = static_cast<int>(g() % 6); i < k; ++i)
          c.put(curve_client::frame(static_cast<std::uint8_t>(g() % 8), random_bytes(g, g() % 300)));
    }
    if (n % 50 == 49) {
      client::connection legit(ep, o);
      EXPECT_NO_THROW((void)legit.status()) << "the legitimate client was not served after " << n + 1 << " connections";
      ASSERT_TRUE(server->running()) << "the server died at connection " << n << ":\n" << server_logs(svc);
    }
  }
  std::cout << "network fuzz: " << n << " connections" << std::endl;
  client::connection legit(ep, o);
  EXPECT_NO_THROW((void)legit.status());
  EXPECT_TRUE(server->running()) << server_logs(svc);
  EXPECT_EQ(server->terminate(), 0);
}

}  // namespace
}  // namespace cuzk::test
