// Every attack at once (issues 19 and 37): a hostile local client (uid
// nobody) and a hostile network client (an authorized CURVE key, and a host
// with none) run them all for a minute (CUZK_SOAK_SECONDS) beside a
// legitimate client that keeps proving over the network. Its proofs all
// verify, its status latency stays under 200 ms throughout, neither attacker
// receives anything of it, and the server is alive at the end with every slot
// free.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <list>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <thread>

#include "harness.hpp"
#include "http_get.hpp"
#include "net/curve_keys.hpp"
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

/* What the attackers hold: the key's path (local) and id (network), the pool's files, the keys. */
struct soak_setup {
  std::string key_path, key_id, junk_key, network_endpoint, server_public;
  net::curve_keypair mallory, stranger;  // mallory is authorized, the stranger's key is not
  fs::path wtns, poison;
  unsigned short metrics_port = 0;
};

enum : int { stole_a_proof = 1, read_the_timeline = 2 };

/* The hostile local client's minute: every attack of issues 19 and 37 in a thread of its own. */
[[gnu::noinline]] int hostile_local(service& svc, const soak_setup& k, std::chrono::seconds length) {
  const auto until = clock_t_::now() + length;
  std::list<std::thread> ts;  // not a vector: GCC 12 warns (-Warray-bounds) of its reallocation here
  std::atomic<int> stole{0}, timeline{0};
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
  // Submissions that are slow to prepare and refused only then: a junk key, and a sha256 preimage of 16 MiB.
  ts.emplace_back([&] {
    raw_peer p(svc.endpoint());
    auto junk = native_submit("", circuit, 1, "hostile");
    junk.zkey = k.junk_key;
    proto::submit sha;
    sha.client = "hostile";
    sha.zkey = k.key_path;
    sha.work = proto::native_work{"sha256:bytes=16000000", R"({"preimage_seed": 1})"};
    int outstanding = 0;
    for (int i = 0; clock_t_::now() < until; ++i) {
      while (outstanding < 32) {
        auto& s = i % 2 ? junk : sha;
        s.job_id = "junk-" + std::to_string(i++);
        p.send(s, 4);
        ++outstanding;
      }
      if (p.receive(20ms)) --outstanding;
    }
  });
  // Critical jobs of 16 partitions, as many as it may keep in flight, again and again.
  ts.emplace_back([&] {
    raw_peer p(svc.endpoint());
    for (int i = 0; clock_t_::now() < until; ++i) {
      auto s = native_submit("crit-" + std::to_string(i), circuit, 9, "hostile");
      s.priority = proto::priority::critical;
      s.partitions = 16;
      p.send(s, 6);
      while (p.receive(5ms)) {
      }
      std::this_thread::sleep_for(20ms);
    }
  });
  // One-byte uploads, each a file in the spool.
  ts.emplace_back([&] {
    raw_peer p(svc.endpoint());
    for (int i = 0; clock_t_::now() < until; ++i) {
      p.send(proto::upload{"byte-" + std::to_string(i), proto::upload_kind::wtns, 1, 0, "x", k.key_id}, 7);
      while (p.receive(1ms)) {
      }
    }
  });
  // Idle connections, as many as it may hold (the rest are closed by the server).
  ts.emplace_back([&] {
    auto fds = open_unix_connections(svc.endpoint().substr(6), 500);
    while (clock_t_::now() < until) std::this_thread::sleep_for(100ms);
    for (int fd : fds)
      if (fd >= 0) ::close(fd);
  });
  ts.emplace_back([&] { slow_metrics(k.metrics_port, until); });
  // The operator's timeline and trace: every client's jobs.
  ts.emplace_back([&] {
    while (clock_t_::now() < until) {
      for (const char* page : {"/timeline", "/trace.json"}) try {
          if (http_request(k.metrics_port, page).status == 200) ++timeline;
        } catch (const std::exception&) {
        }
      std::this_thread::sleep_for(200ms);
    }
  });
  // Poison input under ids and names with bidi overrides and C1 controls: a .r1cs claiming a gigabyte.
  ts.emplace_back([&] {
    raw_peer p(svc.endpoint());
    proto::submit s;
    s.client = "hostile\u2066\xc2\x9b";
    s.zkey = k.key_path;
    s.work = proto::circom_work{k.wtns.string(), k.poison.string()};
    for (int i = 0; clock_t_::now() < until; ++i) {
      s.job_id = "\u202epoison\xc2\x9b" + std::to_string(i);
      p.send(s, 5);
      while (p.receive(5ms)) {
      }
      std::this_thread::sleep_for(100ms);
    }
  });
  for (auto& t : ts) t.join();
  return (stole ? stole_a_proof : 0) | (timeline ? read_the_timeline : 0);
}

int tcp_connect(unsigned short port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (fd >= 0 && ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0) return fd;
  if (fd >= 0) ::close(fd);
  return -1;
}

/* The hostile network client's minute: an authorized key claiming routing ids and walking away from its
   waits, a key nobody authorized, and a host with no key holding TCP connections and sending garbage. */
[[gnu::noinline]] int hostile_network(const soak_setup& k, std::chrono::seconds length) {
  const auto until = clock_t_::now() + length;
  const auto port =
      static_cast<unsigned short>(std::stoi(k.network_endpoint.substr(k.network_endpoint.rfind(':') + 1)));
  std::list<std::thread> ts;  // not a vector: GCC 12 warns (-Warray-bounds) of its reallocation here
  std::atomic<int> stole{0};
  // The ids libzmq hands out next, declared by an authorized key, each asking for the legitimate client's jobs.
  ts.emplace_back([&] {
    std::vector<std::unique_ptr<raw_peer>> ps;
    for (std::uint32_t n = 0; n < 48; ++n)
      ps.push_back(std::make_unique<raw_peer>(k.network_endpoint, k.mallory, k.server_public, claimed_id(n)));
    for (int i = 0; clock_t_::now() < until; ++i)
      for (auto& p : ps) {
        p->send(proto::wait_request{"legit-" + std::to_string(i % 16), 100}, 1);
        if (auto m = p->receive(10ms); m && std::holds_alternative<proto::proof_reply>(m->body)) ++stole;
      }
  });
  // Waits left behind: submit, wait, hang up, under a routing id reused by the next connection.
  ts.emplace_back([&] {
    for (int i = 0; clock_t_::now() < until; ++i) {
      raw_peer p(k.network_endpoint, k.mallory, k.server_public, "walker");
      auto s = native_submit("walk-" + std::to_string(i), circuit, 11, "mallory");
      s.zkey = k.key_id;
      p.send(s, 1);
      p.send(proto::wait_request{"walk-" + std::to_string(i), 30000}, 2);
      (void)p.receive(50ms);
      std::this_thread::sleep_for(100ms);
    }
  });
  // A key the operator never authorized.
  ts.emplace_back([&] {
    for (int i = 0; clock_t_::now() < until; ++i) {
      raw_peer p(k.network_endpoint, k.stranger, k.server_public);
      p.send(proto::status_request{}, 1);
      if (auto m = p.receive(200ms)) ++stole;  // nothing may answer an unknown key
    }
  });
  // No key at all: TCP connections held open, reopened when the server closes them.
  ts.emplace_back([&] {
    std::vector<int> fds;
    while (clock_t_::now() < until) {
      while (fds.size() < 3000) {
        const int fd = tcp_connect(port);
        if (fd < 0) break;
        fds.push_back(fd);
      }
      for (auto it = fds.begin(); it != fds.end();) {
        char b;
        const auto n = ::recv(*it, &b, 1, MSG_DONTWAIT);
        if (n == 0 || (n < 0 && errno != EAGAIN)) {
          ::close(*it);
          it = fds.erase(it);
        } else {
          ++it;
        }
      }
      std::this_thread::sleep_for(200ms);
    }
    for (int fd : fds) ::close(fd);
  });
  // Garbage where the greeting and the handshake go.
  ts.emplace_back([&] {
    std::mt19937_64 rng(seed());
    while (clock_t_::now() < until) {
      const int fd = tcp_connect(port);
      if (fd < 0) {
        std::this_thread::sleep_for(50ms);
        continue;
      }
      std::string g(64, '\0');
      g[0] = char(0xff), g[9] = 0x7f, g[10] = 3;
      std::memcpy(&g[12], rng() % 2 ? "CURVE" : "PLAIN", 5);
      for (std::size_t i = 32 + rng() % 32; i < g.size(); ++i) g[i] = char(rng());
      g += std::string(1 + rng() % 300, char(rng()));
      (void)::send(fd, g.data(), g.size(), MSG_NOSIGNAL);
      std::this_thread::sleep_for(20ms);
      ::close(fd);
    }
  });
  for (auto& t : ts) t.join();
  return stole ? stole_a_proof : 0;
}

TEST(Soak, HostileLocalAndNetworkClientsRunningEveryAttackForAMinuteCostALegitimateNetworkClientNothing) {
  if (const auto why = second_uid_unavailable(); !why.empty()) GTEST_SKIP() << why;
  service svc({"4x4096"}, {"--jobs", "64"});
  const auto d = svc.dir();
  const auto keys = keygen(svc, {"server", "legit", "mallory", "stranger"}, {"legit", "mallory"});
  soak_setup k;
  k.key_path = key_for(circuit).path;
  k.key_id = load_srs(svc, k.key_path);
  auto server = svc.start_server({}, {"--client-group", "nogroup", "--metrics", "127.0.0.1:0", "--network-endpoint",
                                      "tcp://127.0.0.1:*", "--server-key", (d / "server.key").string(), "--clients-dir",
                                      (d / "clients.d").string(), "--spool-dir", (d / "spool").string()});
  auto w1 = svc.start_worker("w1");
  auto w2 = svc.start_worker("w2");
  k.metrics_port = metrics_port(d);
  ASSERT_NE(k.metrics_port, 0) << server_logs(svc);
  k.network_endpoint = network_endpoint(svc);
  ASSERT_FALSE(k.network_endpoint.empty()) << server_logs(svc);
  const auto& server_keys = keys.at("server");
  k.server_public = server_keys.public_key;
  k.mallory = keys.at("mallory");
  k.stranger = keys.at("stranger");
  k.junk_key = (d / "junk.zkey").string();
  random_file(k.junk_key, 16, seed());
  const auto& pk = *key_for(circuit).pk;
  k.wtns = d / "w.wtns", k.poison = d / "poison.r1cs";
  write_bytes(k.wtns, r1cs::write_wtns(std::vector<ff::fr_t>(pk.n_vars, ff::fr_t::one())));
  sparse_r1cs(k.poison, pk, 4, std::uint64_t{1} << 30);
  const auto length = soak_time();

  const auto& legit_keys = keys.at("legit");
  client::options o;
  o.timeout = 30000ms;
  o.curve = client::curve_keys{legit_keys.public_key, legit_keys.secret_key, server_keys.public_key};
  client::connection c(k.network_endpoint, o);
  auto by_id = [&](const std::string& id, std::uint64_t s) {
    auto sub = native_submit(id, circuit, s, "legit");
    sub.zkey = k.key_id;
    return sub;
  };
  c.submit(by_id("legit-0", seed()));
  ASSERT_TRUE(std::holds_alternative<proto::proof_reply>(c.wait("legit-0", 60s)));
  const pid_t local = fork_as_nobody([&] { return hostile_local(svc, k, length); }, 4096);
  const pid_t remote = fork_as_nobody([&] { return hostile_network(k, length); }, 8192);
  const auto until = clock_t_::now() + length;
  std::atomic<bool> proving{true};
  std::chrono::nanoseconds worst{0};
  int samples = 0;
  std::thread watcher([&] {
    client::options so = o;
    so.timeout = 10000ms;
    client::connection s(k.network_endpoint, so);
    (void)s.status();
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
    c.submit(by_id(id, seed() + static_cast<std::uint64_t>(i)));
    auto out = c.wait(id, 60s);
    const auto* pr = std::get_if<proto::proof_reply>(&out);
    ASSERT_NE(pr, nullptr) << id << " did not finish";
    EXPECT_TRUE(verifies(pk, pr->partitions.at(0).proof_json, pr->partitions.at(0).public_json));
    ++proofs;
  }
  proving = false;
  watcher.join();
  const int local_rc = wait_child(local, 60s), remote_rc = wait_child(remote, 60s);
  EXPECT_EQ(local_rc & stole_a_proof, 0) << "the hostile local client received a legitimate client's proof";
  EXPECT_EQ(local_rc & read_the_timeline, 0) << "uid nobody read the operator's timeline or trace";
  EXPECT_EQ(local_rc & ~(stole_a_proof | read_the_timeline), 0) << "the hostile local client ended with " << local_rc;
  EXPECT_EQ(remote_rc, 0) << "the hostile network client received a reply it must not have";
  std::printf("soak: %d legitimate proofs over the network in %lld s, status worst %.1f ms over %d samples\n", proofs,
              static_cast<long long>(length.count()), std::chrono::duration<double, std::milli>(worst).count(),
              samples);
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
