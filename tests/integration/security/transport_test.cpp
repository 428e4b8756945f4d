// A hostile local client against the clients' endpoint itself (issue 19):
// routing ids it claims, descriptors it holds, requests it pipelines. Each
// test failed on the libzmq ROUTER the server had before client_listener.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <thread>

#include "harness.hpp"
#include "hostile.hpp"
#include "run.hpp"
#include "seed.hpp"

namespace cuzk::test {
namespace {

using namespace std::chrono_literals;

const std::string circuit = "chain:size=64";

/* The id libzmq 4.3's ROUTER gives its n-th peer that names none: a zero byte
   and a counter that starts at glibc's first unseeded random(), 0x6b8b4567. */
std::string libzmq_auto_id(std::uint32_t n) {
  const std::uint32_t v = 0x6b8b4567u + n;
  return std::string{'\0', char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
}

/* Worst latency of a Status from a fresh connection, sampled every 20 ms while `busy` holds. */
std::chrono::nanoseconds worst_status(service& svc, const std::function<bool()>& busy) {
  auto c = svc.connect(10000ms);
  (void)c.status();
  return test::worst_status(c, [&](int) { return busy(); });
}

TEST(Transport, RoutingIdsAClientClaimsNeitherTakeAnotherClientsRepliesNorAbortTheServer) {
  REQUIRE_SECOND_UID();
  service svc({"2x4096"});
  auto server = svc.start_server({}, {"--client-group", "nogroup"});
  auto c = svc.connect();
  c.submit(native_submit("victim", circuit, seed(), "victim"));
  raw_peer victim(svc.endpoint());
  victim.send(proto::wait_request{"victim", 60000}, 7);
  std::this_thread::sleep_for(300ms);
  // nobody claims the ids libzmq gave the victim's connections and the ids it would give the next ones.
  int ready[2], done[2];
  ASSERT_EQ(::pipe2(ready, O_CLOEXEC), 0);
  ASSERT_EQ(::pipe2(done, O_CLOEXEC), 0);
  const pid_t thief = fork_as_nobody([&] {
    ::close(done[1]);
    std::vector<std::unique_ptr<raw_peer>> claims;
    for (std::uint32_t n = 0; n < 48; ++n) {
      claims.push_back(std::make_unique<raw_peer>(svc.endpoint(), libzmq_auto_id(n)));
      claims.back()->send(proto::status_request{}, 1000 + n);
    }
    for (auto& p : claims) (void)p->receive(2000ms);  // each its own status: connected and served
    [[maybe_unused]] auto w = ::write(ready[1], "r", 1);
    for (;;) {  // until the parent is done
      for (auto& p : claims)
        if (auto m = p->receive(1ms); m && std::holds_alternative<proto::proof_reply>(m->body)) return 1;
      pollfd pf{done[0], POLLIN, 0};
      if (::poll(&pf, 1, 10) > 0) return 0;
    }
  });
  ::close(done[0]);
  ::close(ready[1]);
  char r = 0;
  ASSERT_EQ(::read(ready[0], &r, 1), 1) << "the thief did not connect";
  auto later = svc.connect();  // the next id libzmq would have given: claimed above
  (void)later.status();
  auto worker = svc.start_worker("w1");
  auto m = victim.receive(60s);
  ASSERT_TRUE(m) << "the victim's Wait was never answered";
  EXPECT_TRUE(std::holds_alternative<proto::proof_reply>(m->body)) << "the victim got another answer";
  std::this_thread::sleep_for(500ms);
  ::close(done[1]);
  EXPECT_EQ(wait_child(thief, 30s), 0) << "a connection that claimed a routing id received the victim's proof";
  EXPECT_TRUE(server->running()) << "the server died";
  (void)svc.connect().status();
}

/* nobody holds `n` plain connections: how many the server left open once it had closed all but `bound` (or, when
   it never does, just before its 5 s handshake deadline, counted from each accept, would close the rest). */
unsigned connections_nobody_keeps(service& svc, unsigned n, unsigned bound) {
  int out[2];
  if (::pipe2(out, O_CLOEXEC) != 0) return 0;
  const auto path = svc.endpoint().substr(6);
  const pid_t child = fork_as_nobody(
      [&] {
        const auto deadline = std::chrono::steady_clock::now() + 4s;
        auto fds = open_unix_connections(path, n);
        unsigned open = still_open(fds);
        for (; open > bound && std::chrono::steady_clock::now() < deadline; open = still_open(fds))
          std::this_thread::sleep_for(100ms);
        [[maybe_unused]] auto w = ::write(out[1], &open, sizeof open);
        std::this_thread::sleep_for(500ms);
        return 0;
      },
      n + 64);
  ::close(out[1]);
  unsigned open = 0;
  if (::read(out[0], &open, sizeof open) != sizeof open) open = ~0u;
  const int rc = wait_child(child, 30s);
  EXPECT_EQ(rc, 0) << "the connecting child failed";
  ::close(out[0]);
  return open;
}

/* The server under a descriptor limit of 1024. */
std::unique_ptr<process> server_with_1024_descriptors(service& svc, const std::vector<std::string>& args) {
  svc.server_wrapper = {"/usr/bin/prlimit", "--nofile=1024:1024", "--"};
  return svc.start_server({}, args);
}

TEST(Transport, IdleConnectionsAreBoundedPerUidAndInTotalAndTheExcessIsClosedNotFatal) {
  REQUIRE_SECOND_UID();
  service svc({"2x4096"});
  auto server = server_with_1024_descriptors(svc, {"--client-group", "nogroup", "--max-connections-per-client", "16"});
  auto c = svc.connect();
  (void)c.status();
  const unsigned kept = connections_nobody_keeps(svc, 3000, 16);
  EXPECT_LE(kept, 16u) << "connections of one uid beyond its bound stayed open";
  EXPECT_GT(kept, 0u);
  ASSERT_TRUE(server->running()) << "the server died of descriptors:\n" << server_logs(svc);
  (void)c.status();
  (void)svc.connect(3000ms).status();  // another uid still connects
  EXPECT_NE(server_logs(svc).find("the limit per client is 16"), std::string::npos) << server_logs(svc);
  // In total: one uid may hold many, but never more than fit the server's descriptors.
  service other({"2x4096"});
  auto second =
      server_with_1024_descriptors(other, {"--client-group", "nogroup", "--max-connections-per-client", "60000"});
  (void)other.connect().status();
  const unsigned total = connections_nobody_keeps(other, 3000, (1024u - 256u) / 2);
  EXPECT_LE(total, (1024u - 256u) / 2) << "more connections than the descriptor limit allows stayed open";
  ASSERT_TRUE(second->running()) << "the server died of descriptors:\n" << server_logs(other);
  (void)other.connect(3000ms).status();
}

TEST(Transport, PipelinedFetchesOfASixteenPartitionJobNeitherHoldTheLoopNorDelaySigterm) {
  service svc({"4x4096"});
  auto server = svc.start_server();
  auto w1 = svc.start_worker("w1");
  auto c = svc.connect();
  auto s = native_submit("sixteen", circuit, seed(), "pipeline");
  s.partitions = 16;
  c.submit(s);
  ASSERT_TRUE(std::holds_alternative<proto::proof_reply>(c.wait("sixteen", 120s)));
  raw_peer flood(svc.endpoint());
  std::atomic<bool> flooding{true};
  std::atomic<int> proofs{0};
  std::thread t([&] {
    for (int i = 0; i < 4000; ++i) flood.send(proto::fetch{"sixteen"}, i);
    while (auto m = flood.receive(2000ms)) proofs += std::holds_alternative<proto::proof_reply>(m->body);
    flooding = false;
  });
  const auto worst = worst_status(svc, [&] { return flooding.load(); });
  t.join();
  EXPECT_GT(proofs.load(), 0);
  EXPECT_LT(worst, 200ms) << "status took " << std::chrono::duration<double, std::milli>(worst).count()
                          << " ms while 4000 Fetches of a 16-partition job were answered";
  std::printf("status: worst %.1f ms during 4000 pipelined Fetches (%d answered with proofs)\n",
              std::chrono::duration<double, std::milli>(worst).count(), proofs.load());
  // SIGTERM in the middle of another burst is acted on at once.
  for (int i = 0; i < 4000; ++i) flood.send(proto::fetch{"sixteen"}, i);
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(server->terminate(10s), 0) << "SIGTERM did not stop the server";
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 3s);
}

TEST(Transport, SigtermIsActedOnWithinItsGraceWhateverHoldsTheLoop) {
  service svc({"2x4096"});
  // The loop stops turning at its 5th tick. CUZK_FAILPOINT_COUNT: a line for each failpoint passed, written before
  // the failpoint acts, so the 5th "server.tick" says the loop is stalled.
  const auto passed = svc.dir() / "failpoints";
  auto server =
      svc.start_server({{"CUZK_FAILPOINT", "server.tick:5:stall"}, {"CUZK_FAILPOINT_COUNT", passed.string()}});
  ASSERT_TRUE(eventually(
      [&] {
        const std::string text = "\n" + read_all(passed), tick = "\nserver.tick\n";
        int ticks = 0;
        for (auto i = text.find(tick); i != std::string::npos; i = text.find(tick, i + 1)) ++ticks;
        return ticks >= 5;
      },
      30s))
      << "the loop never reached its stall\n"
      << server_logs(svc);
  const auto t0 = std::chrono::steady_clock::now();
  const int code = server->terminate(15s);
  EXPECT_NE(code, -1) << "SIGTERM was never acted on";
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 8s);
  EXPECT_NE(server_logs(svc).find("did not act on it within 5000 ms"), std::string::npos) << server_logs(svc);
}

}  // namespace
}  // namespace cuzk::test
