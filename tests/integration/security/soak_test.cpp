// Every attack at once (issue 19): one hostile client (uid nobody) runs them
// all for a minute (CUZK_SOAK_SECONDS) beside a legitimate client that keeps proving. Its proofs
// all verify, its status latency stays under 200 ms throughout, and the server
// is alive at the end with every slot free.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <thread>

#include "harness.hpp"
#include "r1cs/wtns_file.hpp"
#include "hostile.hpp"
#include "run.hpp"
#include "seed.hpp"

namespace cuzk::test {
namespace {

using namespace std::chrono_literals;
using clock_t_ = std::chrono::steady_clock;

const std::string circuit = "chain:size=64";

std::chrono::seconds soak_time() {
  const char* s = std::getenv("CUZK_SOAK_SECONDS");
  return std::chrono::seconds(s && *s ? std::atoi(s) : 60);
}

std::string claimed_id(std::uint32_t n) {  // libzmq 4.3's automatic ids, as transport_test claims them
  const std::uint32_t v = 0x6b8b4567u + n;
  return std::string{'\0', char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
}

/* Slow HTTP requests to the metrics port, a byte now and then, reopened when the server closes them. */
void slow_metrics(unsigned short port, clock_t_::time_point until) {
  std::vector<int> fds;
  while (clock_t_::now() < until) {
    while (fds.size() < 100) {
      const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
      sockaddr_in a{};
      a.sin_family = AF_INET;
      a.sin_port = htons(port);
      a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
      if (fd < 0 || ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
        if (fd >= 0) ::close(fd);
        break;
      }
      fds.push_back(fd);
    }
    for (auto it = fds.begin(); it != fds.end();) {
      if (::send(*it, "G", 1, MSG_NOSIGNAL | MSG_DONTWAIT) < 0 && errno != EAGAIN) {
        ::close(*it);
        it = fds.erase(it);
      } else {
        ++it;
      }
    }
    std::this_thread::sleep_for(500ms);
  }
  for (int fd : fds) ::close(fd);
}

/* The hostile client's minute: every attack of issue 19 in a thread of its own. */
int hostile(service& svc, unsigned short metrics_port, const std::string& junk_key, const fs::path& wtns,
            const fs::path& poison, std::chrono::seconds length) {
  const auto until = clock_t_::now() + length;
  std::vector<std::thread> ts;
  std::atomic<int> stole{0};
  // Claimed routing ids asking for the victim's job.
  ts.emplace_back([&] {
    std::vector<std::unique_ptr<raw_peer>> ps;
    for (std::uint32_t n = 0; n < 8; ++n) ps.push_back(std::make_unique<raw_peer>(svc.endpoint(), claimed_id(n)));
    while (clock_t_::now() < until)
      for (auto& p : ps) {
        p->send(proto::fetch{"legit-0"}, 1);
        if (auto m = p->receive(20ms); m && std::holds_alternative<proto::proof_reply>(m->body)) ++stole;
      }
  });
  // Pipelined Fetches of its own 16-partition job, and table hoarding with unfetched jobs.
  ts.emplace_back([&] {
    raw_peer p(svc.endpoint());
    auto s = native_submit("own-16", circuit, 7, "hostile");
    s.partitions = 16;
    p.send(s, 1);
    for (int i = 0; clock_t_::now() < until; ++i) {
      auto h = native_submit("hoard-" + std::to_string(i), circuit, 7, "hostile");
      p.send(h, 2);
      for (int k = 0; k < 200; ++k) p.send(proto::fetch{"own-16"}, 3);
      while (p.receive(5ms)) {
      }
      std::this_thread::sleep_for(50ms);
    }
  });
  // Submissions that are slow to prepare and refused only then.
  ts.emplace_back([&] {
    raw_peer p(svc.endpoint());
    auto s = native_submit("", circuit, 1, "hostile");
    s.zkey = junk_key;
    int outstanding = 0;
    for (int i = 0; clock_t_::now() < until; ++i) {
      while (outstanding < 32) {
        s.job_id = "junk-" + std::to_string(i++);
        p.send(s, 4);
        ++outstanding;
      }
      if (p.receive(20ms)) --outstanding;
    }
  });
  // Idle connections, as many as it may hold (the rest are closed by the server).
  ts.emplace_back([&] {
    auto fds = open_unix_connections(svc.endpoint().substr(6), 500);
    while (clock_t_::now() < until) std::this_thread::sleep_for(100ms);
    for (int fd : fds)
      if (fd >= 0) ::close(fd);
  });
  ts.emplace_back([&] { slow_metrics(metrics_port, until); });
  // Poison input under ids and names with bidi overrides and C1 controls: a .r1cs claiming a gigabyte.
  ts.emplace_back([&] {
    raw_peer p(svc.endpoint());
    proto::submit s;
    s.client = "hostile\u2066\xc2\x9b";
    s.zkey = key_for(circuit).path;
    s.work = proto::circom_work{wtns.string(), poison.string()};
    for (int i = 0; clock_t_::now() < until; ++i) {
      s.job_id = "\u202epoison\xc2\x9b" + std::to_string(i);
      p.send(s, 5);
      while (p.receive(5ms)) {
      }
      std::this_thread::sleep_for(100ms);
    }
  });
  for (auto& t : ts) t.join();
  return stole ? 1 : 0;
}

TEST(Soak, OneHostileClientRunningEveryAttackForAMinuteCostsALegitimateClientNothing) {
  if (const auto why = second_uid_unavailable(); !why.empty()) GTEST_SKIP() << why;
  service svc({"4x4096"}, {"--jobs", "64"});
  auto server = svc.start_server({}, {"--client-group", "nogroup", "--metrics", "127.0.0.1:0"});
  auto w1 = svc.start_worker("w1");
  auto w2 = svc.start_worker("w2");
  const auto port = metrics_port(svc.dir());
  ASSERT_NE(port, 0) << server_logs(svc);
  const auto junk = svc.dir() / "junk.zkey";
  random_file(junk, 16, seed());
  const auto& pk = *key_for(circuit).pk;
  const auto wtns = svc.dir() / "w.wtns", poison = svc.dir() / "poison.r1cs";
  write_bytes(wtns, r1cs::write_wtns(std::vector<ff::fr_t>(pk.n_vars, ff::fr_t::one())));
  sparse_r1cs(poison, pk, 4, std::uint64_t{1} << 30);
  const auto length = soak_time();
  auto c = svc.connect(30000ms);
  c.submit(native_submit("legit-0", circuit, seed(), "legit"));
  ASSERT_TRUE(std::holds_alternative<proto::proof_reply>(c.wait("legit-0", 60s)));
  const pid_t attacker = fork_as_nobody(
      [&] { return hostile(svc, port, junk.string(), wtns, poison, length); }, 4096);
  const auto until = clock_t_::now() + length;
  std::atomic<bool> proving{true};
  std::chrono::nanoseconds worst{0};
  int samples = 0;
  std::thread watcher([&] {
    auto s = svc.connect(10000ms);
    while (proving) {
      const auto t0 = clock_t_::now();
      try {
        (void)s.status();  // its own jobs (fetched ones are evicted as the table needs room)
      } catch (const std::exception& e) {
        ADD_FAILURE() << "status failed: " << e.what();
      }
      worst = std::max(worst, clock_t_::now() - t0);
      ++samples;
      std::this_thread::sleep_for(50ms);
    }
  });
  int proofs = 0;
  for (int i = 1; clock_t_::now() < until; ++i) {
    const auto id = "legit-" + std::to_string(i);
    const auto sub = native_submit(id, circuit, seed() + static_cast<std::uint64_t>(i), "legit");
    c.submit(sub);
    auto out = c.wait(id, 60s);
    const auto* pr = std::get_if<proto::proof_reply>(&out);
    ASSERT_NE(pr, nullptr) << id << " did not finish";
    EXPECT_TRUE(verifies(*key_for(circuit).pk, pr->partitions.at(0).proof_json, pr->partitions.at(0).public_json));
    ++proofs;
  }
  proving = false;
  watcher.join();
  EXPECT_EQ(wait_child(attacker, 60s), 0) << "the hostile client received a legitimate client's proof";
  std::printf("soak: %d legitimate proofs in %lld s, status worst %.1f ms over %d samples\n", proofs,
              static_cast<long long>(length.count()), std::chrono::duration<double, std::milli>(worst).count(), samples);
  EXPECT_GE(proofs, 10);
  EXPECT_LT(worst, 200ms) << "status took " << std::chrono::duration<double, std::milli>(worst).count() << " ms";
  ASSERT_TRUE(server->running()) << server_logs(svc);
  EXPECT_EQ(server_logs(svc).find("\u202e"), std::string::npos) << "a bidi override reached the log";
  // No leaked slots: once the hostile jobs drained, every slot is FREE again.
  EXPECT_TRUE(eventually(
      [&] {
        const auto st = nlohmann::json::parse(svc.shm_status_json());
        for (const auto& s : st.at("slots"))
          if (s.at("state") != "free") return false;
        return true;
      },
      120s))
      << svc.shm_status_json();
  EXPECT_EQ(server->terminate(30s), 0);
}

}  // namespace
}  // namespace cuzk::test
