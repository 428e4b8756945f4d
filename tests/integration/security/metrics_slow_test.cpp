// The metrics endpoint against slow connections (issue 19): any local user can
// connect to it, so a flood of stalled requests, from this uid and from nobody,
// must neither stop /healthz and /metrics answering within a second nor keep its
// connections open; and another user's flood never closes this user's request.
#include <arpa/inet.h>
#include <grp.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <pwd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <optional>
#include <thread>

#include "harness.hpp"
#include "hostile.hpp"
#include "run.hpp"

namespace cuzk::test {
namespace {

using namespace std::chrono_literals;
using steady = std::chrono::steady_clock;

constexpr std::string_view stalled = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1\r\n";  // never ended

/* A loopback TCP connection, with send/receive (and connect) timeouts; -1 when refused. */
int connect_to(unsigned short port, std::chrono::seconds limit = 2s) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  const timeval tv{static_cast<time_t>(limit.count()), 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

/* Reads what is there; true when the server closed the connection (EOF or reset). */
bool closed_by_server(int fd) {
  char b[4096];
  for (;;) {
    const auto got = ::recv(fd, b, sizeof b, MSG_DONTWAIT);
    if (got > 0) continue;
    return got == 0 || (errno != EAGAIN && errno != EWOULDBLOCK);
  }
}

struct flood_result {
  std::uint64_t opened = 0, closed_by_server = 0;
  std::uint64_t left_open = 0;  // still open `drain` after the flood ended
};

/* A slowloris: n connections that each send the start of a request and stall, each one
   the server closes opened again until `until`; then up to `drain` for the server to
   close those left. */
flood_result slowloris(unsigned short port, std::size_t n, steady::time_point until, std::chrono::seconds drain) {
  flood_result r;
  std::vector<pollfd> fds(n, pollfd{-1, POLLIN, 0});
  auto open_one = [&](pollfd& p) {
    p.fd = connect_to(port);
    if (p.fd < 0) return;
    ++r.opened;
    (void)::send(p.fd, stalled.data(), stalled.size(), MSG_NOSIGNAL);
  };
  auto reap = [&](bool reopen) {
    std::size_t open = 0;
    for (auto& p : fds) {
      if (p.fd >= 0 && p.revents && closed_by_server(p.fd)) {
        ::close(p.fd);
        p.fd = -1;
        ++r.closed_by_server;
      }
      if (p.fd < 0 && reopen) open_one(p);
      open += p.fd >= 0;
      p.revents = 0;
    }
    return open;
  };
  for (auto& p : fds) open_one(p);
  while (steady::now() < until) {
    ::poll(fds.data(), fds.size(), 20);
    reap(true);
  }
  const auto end = steady::now() + drain;
  while (steady::now() < end) {
    ::poll(fds.data(), fds.size(), 20);
    if (reap(false) == 0) break;
  }
  for (auto& p : fds)
    if (p.fd >= 0) ++r.left_open, ::close(p.fd);
  return r;
}

/* slowloris() in a child that became uid nobody; its result comes back through a pipe. */
class nobody_flood {
 public:
  nobody_flood(unsigned short port, std::size_t n, steady::time_point until) {
    if (::pipe(pipe_) != 0) throw std::runtime_error("pipe");
    pid_ = ::fork();
    if (pid_ == 0) {
      ::close(pipe_[0]);
      if (::setgroups(0, nullptr) != 0 || ::setgid(::getgrnam("nogroup")->gr_gid) != 0 ||
          ::setuid(::getpwnam("nobody")->pw_uid) != 0)
        ::_exit(3);
      const auto r = slowloris(port, n, until, 10s);
      ::_exit(::write(pipe_[1], &r, sizeof r) == sizeof r ? 0 : 4);
    }
    ::close(pipe_[1]);
  }
  ~nobody_flood() {
    if (pid_ > 0) ::kill(pid_, SIGKILL), ::waitpid(pid_, nullptr, 0);
    ::close(pipe_[0]);
  }
  /* Waits for the child; nullopt when it failed to become nobody or to report. */
  std::optional<flood_result> result() {
    flood_result r;
    const bool got = ::read(pipe_[0], &r, sizeof r) == sizeof r;
    int st = 0;
    ::waitpid(pid_, &st, 0);
    pid_ = -1;
    if (!got || !WIFEXITED(st) || WEXITSTATUS(st) != 0) return std::nullopt;
    return r;
  }

 private:
  int pipe_[2] = {-1, -1};
  pid_t pid_ = -1;
};

struct probe_result {
  unsigned status = 0;  // 0: no answer
  steady::duration took{};
  std::string body;
};

/* One GET on a fresh connection, the whole answer read (the server closes after it). */
probe_result probe(unsigned short port, const std::string& target) {
  probe_result r;
  const auto t0 = steady::now();
  const int fd = connect_to(port);
  if (fd >= 0) {
    const std::string rq = "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    std::string got;
    if (::send(fd, rq.data(), rq.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(rq.size())) {
      char b[4096];
      for (ssize_t n; (n = ::recv(fd, b, sizeof b, 0)) > 0;) got.append(b, static_cast<std::size_t>(n));
    }
    ::close(fd);
    if (got.rfind("HTTP/1.1 ", 0) == 0) r.status = static_cast<unsigned>(std::atoi(got.c_str() + 9));
    if (const auto at = got.find("\r\n\r\n"); at != std::string::npos) r.body = got.substr(at + 4);
  }
  r.took = steady::now() - t0;
  return r;
}

double sample(const std::string& text, const std::string& series) {
  const auto at = text.find("\n" + series + " ");
  return at == std::string::npos ? -1 : std::stod(text.substr(at + series.size() + 2));
}

std::unique_ptr<process> start_server(service& svc, unsigned short& port) {
  auto server = svc.start_server({}, {"--metrics", "127.0.0.1:0"});
  port = metrics_port(svc.dir());
  return server;
}

TEST(MetricsSlow, SlowlorisFromTwoUsersNeitherStopsProbesNorKeepsItsConnections) {
  REQUIRE_SECOND_UID();
  service svc({"2x4096"});
  unsigned short port = 0;
  auto server = start_server(svc, port);
  ASSERT_NE(port, 0) << server_logs(svc);

  const auto until = steady::now() + 4s;  // past the 3 s request deadline: its waves of closes included
  nobody_flood theirs(port, 120, until);
  flood_result mine;
  std::thread flood([&] { mine = slowloris(port, 120, until, 10s); });
  std::this_thread::sleep_for(200ms);
  std::size_t probes = 0;
  std::string failures;
  while (steady::now() < until) {
    for (const char* target : {"/healthz", "/metrics"}) {
      const auto p = probe(port, target);
      ++probes;
      if (p.status != 200 || p.took > 1s)
        failures += std::string(target) + ": status " + std::to_string(p.status) + " after " +
                    std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(p.took).count()) + " ms\n";
    }
    std::this_thread::sleep_for(100ms);
  }
  flood.join();
  const auto other = theirs.result();
  ASSERT_TRUE(other) << "the flood as nobody did not run";

  EXPECT_EQ(failures, "") << "of " << probes << " probes during the flood";
  EXPECT_GT(mine.opened, 120u);
  EXPECT_GT(other->opened, 120u) << "nobody's connections were never closed during the flood";
  EXPECT_EQ(mine.left_open, 0u) << "stalled connections still open 10 s after the flood";
  EXPECT_EQ(other->left_open, 0u) << "nobody's stalled connections still open 10 s after the flood";
  const auto m = probe(port, "/metrics");
  ASSERT_EQ(m.status, 200u);
  EXPECT_GT(sample(m.body, "cuzk_http_closed_total{reason=\"evicted\"}"), 0) << m.body;
  EXPECT_GT(sample(m.body, "cuzk_http_closed_total{reason=\"timeout\"}"), 0) << m.body;
  EXPECT_EQ(sample(m.body, "cuzk_http_connections"), 1) << "only this probe's connection\n" << m.body;
  EXPECT_TRUE(server->running());
}

TEST(MetricsSlow, AnotherUsersFloodNeverClosesThisUsersSlowRequest) {
  REQUIRE_SECOND_UID();
  service svc({"2x4096"});
  unsigned short port = 0;
  auto server = start_server(svc, port);
  ASSERT_NE(port, 0) << server_logs(svc);

  const int mine = connect_to(port);
  ASSERT_GE(mine, 0);
  const std::string_view head = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n";
  ASSERT_EQ(::send(mine, head.data(), head.size(), MSG_NOSIGNAL), static_cast<ssize_t>(head.size()));
  const auto until = steady::now() + 1500ms;  // within the 3 s request deadline
  nobody_flood theirs(port, 200, until);
  double most_open = 0;
  while (steady::now() < until) {
    const auto m = probe(port, "/metrics");
    most_open = std::max(most_open, sample(m.body, "cuzk_http_connections"));
    std::this_thread::sleep_for(100ms);
  }
  (void)::send(mine, "\r\n", 2, MSG_NOSIGNAL);  // the request's end
  std::string got;
  char b[4096];
  for (ssize_t n; (n = ::recv(mine, b, sizeof b, 0)) > 0;) got.append(b, static_cast<std::size_t>(n));
  ::close(mine);
  EXPECT_EQ(got.rfind("HTTP/1.1 200", 0), 0u) << "this user's slow request went unanswered: \"" << got << "\"";
  const auto other = theirs.result();
  ASSERT_TRUE(other) << "the flood as nobody did not run";
  EXPECT_GT(other->closed_by_server, 100u) << "nobody's connections beyond its bound were not closed";
  EXPECT_GT(most_open, 0);
  EXPECT_LE(most_open, 10) << "nobody held more than its bound (8) at once";
}

}  // namespace
}  // namespace cuzk::test
