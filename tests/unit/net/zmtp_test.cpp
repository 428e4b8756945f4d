// The server side of ZMTP against libzmq's own DEALER: handshake, messages
// short and long, multipart, heartbeats; and the reader's refusals.
#include "net/zmtp.hpp"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <random>
#include <thread>
#include <zmq.hpp>

#include "seed.hpp"
#include "temp_dir.hpp"

namespace cuzk::net::zmtp {
namespace {

using namespace std::chrono_literals;
using bytes = std::vector<std::uint8_t>;

/* One accepted connection served with the reader: every message is echoed
   back, frame by frame; PINGs are answered unless `answer_pings` is false. */
struct echo_server {
  int listener = -1;
  std::thread t;
  std::atomic<int> pings{0}, messages{0};
  std::atomic<bool> answer_pings{true};
  std::vector<std::vector<bytes>> seen;

  explicit echo_server(const std::string& path) {
    listener = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un a{};
    a.sun_family = AF_UNIX;
    std::strncpy(a.sun_path, path.c_str(), sizeof a.sun_path - 1);
    if (::bind(listener, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(listener, 4) != 0)
      throw std::runtime_error("bind");
    t = std::thread([this] { serve(); });
  }
  ~echo_server() {
    ::shutdown(listener, SHUT_RDWR);
    ::close(listener);
    t.join();
  }
  static void put(int fd, const bytes& b) {
    std::size_t off = 0;
    while (off < b.size()) {
      const auto n = ::write(fd, b.data() + off, b.size() - off);
      if (n <= 0) return;
      off += static_cast<std::size_t>(n);
    }
  }
  void serve() {
    const int fd = ::accept(listener, nullptr, nullptr);
    if (fd < 0) return;
    put(fd, server_greeting());
    put(fd, ready_command("ROUTER"));
    reader r(1 << 20);
    std::uint8_t buf[4096];
    for (;;) {
      const auto n = ::read(fd, buf, sizeof buf);
      if (n <= 0) break;
      r.feed({buf, static_cast<std::size_t>(n)});
      while (auto e = r.next()) {
        if (e->kind == event::ping) {
          ++pings;
          if (answer_pings) put(fd, pong_command(e->frames[0]));
        } else if (e->kind == event::message) {
          ++messages;
          seen.push_back(e->frames);
          for (std::size_t i = 0; i < e->frames.size(); ++i)
            put(fd, message_frame(e->frames[i], i + 1 < e->frames.size()));
        }
      }
    }
    ::close(fd);
  }
};

TEST(Zmtp, ALibzmqDealerTalksToTheServerSideShortLongAndMultipartMessagesAndHeartbeats) {
  test::temp_dir dir;
  echo_server srv((dir.path() / "s").string());
  zmq::context_t ctx;
  zmq::socket_t d(ctx, zmq::socket_type::dealer);
  d.set(zmq::sockopt::linger, 0);
  d.set(zmq::sockopt::heartbeat_ivl, 100);
  d.set(zmq::sockopt::heartbeat_timeout, 500);
  d.set(zmq::sockopt::routing_id, "claimed-id");  // read and ignored
  d.connect(dir.ipc("s"));
  std::mt19937_64 g(test::seed());
  for (std::size_t size :
       {std::size_t{0}, std::size_t{1}, std::size_t{255}, std::size_t{256}, std::size_t{g() % 100000}}) {
    bytes body(size);
    for (auto& b : body) b = static_cast<std::uint8_t>(g());
    d.send(zmq::buffer(body), zmq::send_flags::none);
    zmq::message_t m;
    ASSERT_TRUE(d.recv(m));
    EXPECT_EQ(bytes(static_cast<const std::uint8_t*>(m.data()), static_cast<const std::uint8_t*>(m.data()) + m.size()),
              body)
        << size << " bytes";
  }
  d.send(zmq::str_buffer("a"), zmq::send_flags::sndmore);
  d.send(zmq::str_buffer("bc"), zmq::send_flags::none);
  zmq::message_t a, bc;
  ASSERT_TRUE(d.recv(a));
  EXPECT_TRUE(a.more());
  ASSERT_TRUE(d.recv(bc));
  EXPECT_EQ(bc.to_string(), "bc");
  std::this_thread::sleep_for(1200ms);  // > heartbeat timeout: the PONGs kept the connection
  EXPECT_GE(srv.pings.load(), 3);
  d.send(zmq::str_buffer("still here"), zmq::send_flags::none);
  zmq::message_t last;
  d.set(zmq::sockopt::rcvtimeo, 2000);
  ASSERT_TRUE(d.recv(last));
  EXPECT_EQ(last.to_string(), "still here");
  EXPECT_EQ(srv.messages.load(), 7);
}

bytes dealer_greeting() {
  bytes g(greeting_bytes, 0);
  g[0] = 0xff;
  g[9] = 0x7f;
  g[10] = 3;
  std::memcpy(&g[12], "NULL", 4);
  return g;
}

bytes cat(std::initializer_list<bytes> parts) {
  bytes out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

void expect_refused(const bytes& stream, const char* says) {
  reader r(1024);
  r.feed(stream);
  try {
    while (r.next()) {
    }
    ADD_FAILURE() << "accepted: " << says;
  } catch (const protocol_error& e) {
    EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
  }
}

TEST(Zmtp, TheReaderRefusesWhatIsNotZmtpThreeWithNullBeforeBufferingIt) {
  expect_refused({'G', 'E', 'T', ' ', '/'}, "not a ZMTP greeting");
  auto v2 = dealer_greeting();
  v2[10] = 2;
  expect_refused(v2, "version 2");
  auto curve = dealer_greeting();
  std::memcpy(&curve[12], "CURVE", 5);
  expect_refused(curve, "NULL security mechanism");
  const auto ready = ready_command("DEALER");
  expect_refused(cat({dealer_greeting(), message_frame(bytes{1, 2, 3})}), "before the READY");
  // A long frame claiming 2^40 bytes is refused from its header alone.
  expect_refused(cat({dealer_greeting(), ready, bytes{0x02, 0, 0, 1, 0, 0, 0, 0, 0}}), "over the limit");
  expect_refused(cat({dealer_greeting(), ready, bytes{0x08, 1, 0}}), "reserved frame flags");
  bytes many;
  for (int i = 0; i < 17; ++i) many = cat({many, message_frame(bytes{1}, true)});
  expect_refused(cat({dealer_greeting(), ready, many}), "more than 16 frames");
}

TEST(Zmtp, TheReaderWaitsForWholeFramesFedAByteAtATime) {
  const auto stream =
      cat({dealer_greeting(), ready_command("DEALER"), message_frame(bytes(300, 7), true), message_frame(bytes{9})});
  reader r(1 << 20);
  std::vector<event> events;
  for (auto b : stream) {
    r.feed({&b, 1});
    while (auto e = r.next()) events.push_back(std::move(*e));
  }
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].kind, event::ready);
  EXPECT_EQ(events[0].socket_type, "DEALER");
  ASSERT_EQ(events[1].kind, event::message);
  ASSERT_EQ(events[1].frames.size(), 2u);
  EXPECT_EQ(events[1].frames[0], bytes(300, 7));
  EXPECT_EQ(r.buffered(), 0u);
}

}  // namespace
}  // namespace cuzk::net::zmtp
