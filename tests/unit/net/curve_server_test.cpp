// The server side of CURVE (net/curve_server.hpp) against libzmq's own CURVE
// DEALER: the handshake, the key INITIATE proves, messages both ways, sealed
// heartbeats; and what it refuses (another server's key, a vouch for another
// key, replayed nonces, garbled boxes), each with a sentence.
#include "net/curve_server.hpp"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <random>
#include <thread>
#include <zmq.hpp>

#include "curve_client.hpp"
#include "net/curve_keys.hpp"
#include "net/zmtp.hpp"
#include "seed.hpp"
#include "temp_dir.hpp"

namespace cuzk::net {
namespace {

using namespace std::chrono_literals;
using bytes = std::vector<std::uint8_t>;

void put(int fd, const bytes& b) {
  std::size_t off = 0;
  while (off < b.size()) {
    const auto n = ::write(fd, b.data() + off, b.size() - off);
    if (n <= 0) return;
    off += static_cast<std::size_t>(n);
  }
}

/* One accepted connection: CURVE with `keys`; every message is echoed back. */
struct curve_echo {
  int listener = -1;
  std::thread t;
  curve_server_keys keys;
  std::atomic<int> pings{0}, messages{0};
  std::atomic<bool> done{false};
  std::string proven, error;  // the client key INITIATE proved (Z85); the protocol_error that ended it

  curve_echo(const std::string& path, curve_server_keys k) : keys(k) {
    listener = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un a{};
    a.sun_family = AF_UNIX;
    std::strncpy(a.sun_path, path.c_str(), sizeof a.sun_path - 1);
    if (::bind(listener, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(listener, 4) != 0)
      throw std::runtime_error("bind");
    t = std::thread([this] { serve(); });
  }
  ~curve_echo() {
    ::shutdown(listener, SHUT_RDWR);
    ::close(listener);
    t.join();
  }
  void serve() {
    const int fd = ::accept(listener, nullptr, nullptr);
    if (fd < 0) return;
    put(fd, zmtp::server_greeting("CURVE"));
    curve_server c(keys);
    zmtp::reader r(1 << 20, 16, "CURVE");
    std::uint8_t buf[4096];
    try {
      for (;;) {
        const auto n = ::read(fd, buf, sizeof buf);
        if (n <= 0) break;
        r.feed({buf, static_cast<std::size_t>(n)});
        while (auto e = r.next()) {
          if (e->kind == zmtp::event::handshake) {
            if (c.at() == curve_server::state::hello) {
              put(fd, zmtp::command_frame(c.hello(e->frames[0])));
              continue;
            }
            const auto i = c.initiate(e->frames[0]);
            char z[41];
            zmq_z85_encode(z, i.client_key.data(), 32);
            proven = z;
            EXPECT_EQ(i.socket_type, "DEALER");
            put(fd, zmtp::command_frame(c.ready("ROUTER")));
            r.secure([&c](std::span<const std::uint8_t> s) { return c.open(s); });
          } else if (e->kind == zmtp::event::ping) {
            ++pings;
            put(fd, zmtp::message_frame(c.seal(0x02, zmtp::command_body("PONG", e->frames[0]))));
          } else if (e->kind == zmtp::event::message) {
            ++messages;
            for (std::size_t i = 0; i < e->frames.size(); ++i)
              put(fd, zmtp::message_frame(c.seal(i + 1 < e->frames.size() ? 0x01 : 0, e->frames[i])));
          }
        }
      }
    } catch (const zmtp::protocol_error& e) {
      error = e.what();
    }
    ::close(fd);
    done = true;
  }
};

curve_server_keys server_keys(const curve_keypair& k) { return curve_server_keys_from_z85(k.public_key, k.secret_key); }

void set_curve(zmq::socket_t& d, const curve_keypair& me, const std::string& server_public) {
  d.set(zmq::sockopt::linger, 0);
  d.set(zmq::sockopt::curve_serverkey, server_public);
  d.set(zmq::sockopt::curve_publickey, me.public_key);
  d.set(zmq::sockopt::curve_secretkey, me.secret_key);
}

TEST(CurveServer, ALibzmqCurveDealerHandshakesProvesItsKeyAndTalksBothWays) {
  test::temp_dir dir;
  const auto server = make_curve_keypair(), client = make_curve_keypair();
  curve_echo srv((dir.path() / "s").string(), server_keys(server));
  zmq::context_t ctx;
  zmq::socket_t d(ctx, zmq::socket_type::dealer);
  set_curve(d, client, server.public_key);
  d.set(zmq::sockopt::heartbeat_ivl, 100);
  d.set(zmq::sockopt::heartbeat_timeout, 500);
  d.set(zmq::sockopt::routing_id, "claimed-id");  // sent in INITIATE's metadata, and ignored
  d.set(zmq::sockopt::rcvtimeo, 5000);
  d.connect(dir.ipc("s"));
  std::mt19937_64 g(test::seed());
  for (std::size_t size :
       {std::size_t{0}, std::size_t{1}, std::size_t{255}, std::size_t{256}, std::size_t{g() % 100000}}) {
    bytes body(size);
    for (auto& b : body) b = static_cast<std::uint8_t>(g());
    d.send(zmq::buffer(body), zmq::send_flags::none);
    zmq::message_t m;
    ASSERT_TRUE(d.recv(m)) << size << " bytes: " << srv.error;
    EXPECT_EQ(bytes(static_cast<const std::uint8_t*>(m.data()), static_cast<const std::uint8_t*>(m.data()) + m.size()),
              body);
  }
  d.send(zmq::str_buffer("a"), zmq::send_flags::sndmore);
  d.send(zmq::str_buffer("bc"), zmq::send_flags::none);
  zmq::message_t a, bc;
  ASSERT_TRUE(d.recv(a));
  EXPECT_TRUE(a.more());
  ASSERT_TRUE(d.recv(bc));
  EXPECT_EQ(bc.to_string(), "bc");
  std::this_thread::sleep_for(1200ms);  // > heartbeat timeout: the sealed PONGs kept the connection
  EXPECT_GE(srv.pings.load(), 3);
  d.send(zmq::str_buffer("still here"), zmq::send_flags::none);
  zmq::message_t last;
  ASSERT_TRUE(d.recv(last));
  EXPECT_EQ(last.to_string(), "still here");
  EXPECT_EQ(srv.proven, client.public_key);
  EXPECT_EQ(srv.error, "");
}

TEST(CurveServer, AClientThatExpectsAnotherServerKeyIsRefusedAtHello) {
  test::temp_dir dir;
  const auto server = make_curve_keypair(), other = make_curve_keypair(), client = make_curve_keypair();
  auto srv = std::make_unique<curve_echo>((dir.path() / "s").string(), server_keys(server));
  zmq::context_t ctx;
  zmq::socket_t d(ctx, zmq::socket_type::dealer);
  set_curve(d, client, other.public_key);
  d.connect(dir.ipc("s"));
  d.send(zmq::str_buffer("x"), zmq::send_flags::dontwait);
  for (int i = 0; i < 250 && !srv->done; ++i) std::this_thread::sleep_for(20ms);
  ASSERT_TRUE(srv->done);
  EXPECT_NE(srv->error.find("HELLO that does not open"), std::string::npos) << srv->error;
  EXPECT_EQ(srv->messages.load(), 0);
}

/* The server's side driven by the test's own client: the handshake up to INITIATE. */
struct driven {
  curve_keypair server = make_curve_keypair(), client = make_curve_keypair();
  curve_server s{server_keys(server)};
  test::curve_client c{client.public_key, client.secret_key, server.public_key};
  void to_initiate() {
    const auto w = s.hello(c.hello());
    ASSERT_TRUE(c.welcome(w));
  }
};

void expect_refused(const std::function<void()>& f, const char* says) {
  try {
    f();
    ADD_FAILURE() << "accepted: " << says;
  } catch (const zmtp::protocol_error& e) {
    EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
  }
}

TEST(CurveServer, GarbledTruncatedOrMisorderedCommandsAreRefusedWithASentence) {
  {
    driven d;
    auto h = d.c.hello();
    h[150] ^= 1;
    expect_refused([&] { (void)d.s.hello(h); }, "does not open");
  }
  {
    driven d;
    auto h = d.c.hello();
    h.pop_back();
    expect_refused([&] { (void)d.s.hello(h); }, "HELLO of 199 bytes");
  }
  {
    driven d;
    expect_refused([&] { (void)d.s.initiate(bytes(300, 0)); }, "INITIATE before HELLO");
  }
  {
    driven d;
    d.to_initiate();
    auto i = d.c.initiate();
    i[20] ^= 1;  // the cookie
    expect_refused([&] { (void)d.s.initiate(i); }, "cookie");
  }
  {
    driven d;
    d.to_initiate();
    auto i = d.c.initiate();
    i[200] ^= 1;  // the box
    expect_refused([&] { (void)d.s.initiate(i); }, "does not open");
  }
  {
    driven d;
    d.to_initiate();
    auto i = d.c.initiate();
    i.resize(200);
    expect_refused([&] { (void)d.s.initiate(i); }, "truncated INITIATE");
  }
  {  // a vouch made with another key than the one INITIATE names: the key is not proven
    driven d;
    d.to_initiate();
    const auto mallory = make_curve_keypair();
    test::curve_client forged{mallory.public_key, d.client.secret_key, d.server.public_key};
    forged.transient_public = d.c.transient_public;
    forged.transient_secret = d.c.transient_secret;
    forged.server_transient = d.c.server_transient;
    forged.cookie = d.c.cookie;
    forged.nonce = d.c.nonce;
    expect_refused([&] { (void)d.s.initiate(forged.initiate()); }, "vouch");
  }
  {  // a MESSAGE replayed, or garbled
    driven d;
    d.to_initiate();
    const auto i = d.s.initiate(d.c.initiate("DEALER", "some-id"));
    EXPECT_EQ(i.socket_type, "DEALER");
    ASSERT_TRUE(d.c.ready(d.s.ready("ROUTER")));
    const auto m = d.c.seal(0, bytes{1, 2, 3});
    EXPECT_EQ(d.s.open(m).body, (bytes{1, 2, 3}));
    expect_refused([&] { (void)d.s.open(m); }, "nonce does not increase");
    auto g = d.c.seal(0, bytes{4});
    g.back() ^= 1;
    expect_refused([&] { (void)d.s.open(g); }, "does not open");
    const auto reply = d.c.open(d.s.seal(0x01, bytes{9}));
    EXPECT_EQ(reply, (bytes{0x01, 9}));
  }
}

TEST(CurveServer, TheReaderRefusesAnotherMechanismAndMessagesBeforeTheHandshake) {
  zmtp::reader r(1024, 16, "CURVE");
  r.feed(test::curve_client::greeting("NULL"));
  EXPECT_THROW((void)r.next(), zmtp::protocol_error);
  zmtp::reader r2(1024, 16, "CURVE");
  r2.feed(test::curve_client::greeting("CURVE"));
  r2.feed(test::curve_client::frame(0, bytes{1, 2, 3}));
  EXPECT_THROW((void)r2.next(), zmtp::protocol_error);
}

}  // namespace
}  // namespace cuzk::net
