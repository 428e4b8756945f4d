// Hostile peers against the network endpoint itself (issue 37): routing ids
// an authorized client declares, a connection that takes over another's id,
// plain TCP connects from a peer with no key, and the clients directory
// under a bad file. Each failed on the libzmq ROUTER the endpoint had before.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <thread>

#include "client/lib/errors.hpp"
#include "harness.hpp"
#include "hostile.hpp"
#include "http_get.hpp"
#include "net/curve_keys.hpp"
#include "run.hpp"
#include "seed.hpp"

namespace cuzk::test {
namespace {

using namespace std::chrono_literals;

const std::string circuit = "chain:size=64";

struct keys {
  net::curve_keypair server, alice, bob;
};

/* Keypairs from `cuzk keygen`; alice and bob authorized in dir/clients.d. */
keys make_keys(const service& svc) {
  auto k = keygen(svc, {"server", "alice", "bob"}, {"alice", "bob"});
  return {k.at("server"), k.at("alice"), k.at("bob")};
}

std::vector<std::string> curve_args(const service& svc, std::vector<std::string> more = {}) {
  std::vector<std::string> a{"--network-endpoint", "tcp://127.0.0.1:*",
                             "--server-key",       (svc.dir() / "server.key").string(),
                             "--clients-dir",      (svc.dir() / "clients.d").string(),
                             "--metrics",          "127.0.0.1:0"};
  a.insert(a.end(), more.begin(), more.end());
  return a;
}

std::unique_ptr<raw_peer> peer_of(const std::string& ep, const net::curve_keypair& me, const net::curve_keypair& server,
                                  const std::string& id = "") {
  return std::make_unique<raw_peer>(ep, me, server.public_key, id);
}

/* A libzmq ROUTER's automatic routing id: a zero byte and a 32-bit counter. */
std::string auto_id(std::uint32_t v) { return std::string{'\0', char(v >> 24), char(v >> 16), char(v >> 8), char(v)}; }

unsigned short port_of(const std::string& ep) {
  return static_cast<unsigned short>(std::stoul(ep.substr(ep.rfind(':') + 1)));
}

double metric(unsigned short port, const std::string& series) {
  const auto text = http_request(port, "/metrics").body;
  const auto at = text.find(series + " ");
  return at == std::string::npos ? -1 : std::stod(text.substr(at + series.size() + 1));
}

TEST(NetworkTransport, RoutingIdsAnAuthorizedClientDeclaresNeitherAbortTheServerNorKeepOthersOut) {
  service svc({"2x4096"});
  const auto k = make_keys(svc);
  auto server = svc.start_server({}, curve_args(svc));
  const auto ep = network_endpoint(svc);
  ASSERT_FALSE(ep.empty()) << server_logs(svc);
  // alice claims the ids libzmq's ROUTER would give the next connections: counters from 1, and from the first
  // values of glibc's unseeded random(), where each ROUTER of a process starts its counter.
  std::vector<std::uint32_t> ids;
  for (std::uint32_t base : {0u, 0x6b8b4567u, 0xe43c9869u, 0xf4b0dc51u, 0x74b0dc51u})
    for (std::uint32_t n = 0; n < 8; ++n) ids.push_back(base + n);
  std::vector<std::unique_ptr<raw_peer>> claims;
  for (std::size_t i = 0; i < ids.size(); ++i) {
    claims.push_back(peer_of(ep, k.alice, k.server, auto_id(ids[i])));
    claims.back()->send(proto::status_request{}, 100 + i);
  }
  for (auto& c : claims) {
    const auto m = c->receive(10s);
    ASSERT_TRUE(m) << "a claiming connection was not served:\n" << server_logs(svc);
    EXPECT_TRUE(std::holds_alternative<proto::status_reply>(m->body));
  }
  // More connections arrive, each naming no id: all served, the server alive.
  for (int i = 0; i < 6; ++i) {
    client::connection bob(ep, curve_options(k.bob, k.server, 5s));
    ASSERT_NO_THROW((void)bob.status()) << i << ":\n" << server_logs(svc);
  }
  for (auto& c : claims) {
    c->send(proto::status_request{}, 7);
    EXPECT_TRUE(c->receive(5s)) << "a claiming connection lost its own replies";
  }
  EXPECT_TRUE(server->running()) << server_logs(svc);
}

TEST(NetworkTransport, AWaitGoesWithItsConnectionAndNoLaterConnectionReceivesItsProof) {
  service svc({"2x4096"});
  const auto k = make_keys(svc);
  const auto key_id = load_srs(svc, key_for(circuit).path);
  auto server = svc.start_server({}, curve_args(svc));
  const auto ep = network_endpoint(svc);
  ASSERT_FALSE(ep.empty()) << server_logs(svc);
  client::connection alice(ep, curve_options(k.alice, k.server, 20s));
  auto sub = native_submit("long", circuit, seed(), "net");
  sub.zkey = key_id;
  ASSERT_TRUE(alice.submit(sub).created);
  {  // A waits (no worker yet: the job cannot finish), the server has read the Wait (the Status after it is answered),
     // A goes.
    auto a = peer_of(ep, k.alice, k.server, "A-id");
    a->send(proto::wait_request{"long", 120000}, 1);
    a->send(proto::status_request{}, 2);
    const auto st = a->receive(10s);
    ASSERT_TRUE(st && st->request_id == 2) << server_logs(svc);
  }
  EXPECT_TRUE(eventually([&] { return server_logs(svc).find("1 pending Wait(s) dropped") != std::string::npos; }, 5s))
      << "A's Wait outlived its connection:\n"
      << server_logs(svc);
  // B (the same key, and bob) takes A's routing id; then the job is proven.
  auto b = peer_of(ep, k.alice, k.server, "A-id");
  auto b2 = peer_of(ep, k.bob, k.server, "A-id");
  for (auto* p : {b.get(), b2.get()}) {
    p->send(proto::status_request{}, 3);
    EXPECT_TRUE(p->receive(5s)) << "a connection claiming a routing id in use was not served";
  }
  auto worker = svc.start_worker("w1");
  const auto r = alice.wait("long", 120s);
  ASSERT_TRUE(std::holds_alternative<proto::proof_reply>(r));
  for (auto* p : {b.get(), b2.get()})
    for (auto m = p->receive(1000ms); m; m = p->receive(300ms))
      EXPECT_FALSE(std::holds_alternative<proto::proof_reply>(m->body)) << "a later connection received A's proof";
  EXPECT_TRUE(server->running());
}

TEST(NetworkTransport, PlainConnectsWithNoKeyAreBoundedPerAddressAndInTotalAndTimeOut) {
  service svc({"2x4096"});
  const auto k = make_keys(svc);
  const auto key_id = load_srs(svc, key_for(circuit).path);
  auto server = svc.start_server({}, curve_args(svc, {"--network-max-per-address", "8", "--network-max-connections",
                                                      "20", "--network-handshake-timeout", "1.5"}));
  const auto ep = network_endpoint(svc);
  ASSERT_FALSE(ep.empty()) << server_logs(svc);
  const auto port = port_of(ep);
  const auto mport = metrics_port(svc.dir());
  const auto t0 = std::chrono::steady_clock::now();
  auto from2 = open_tcp_connections("127.0.0.2", "127.0.0.1", port, 40);
  EXPECT_TRUE(eventually([&] { return still_open(from2) <= 8; }, 1000ms))
      << still_open(from2) << " open from one address";
  auto from3 = open_tcp_connections("127.0.0.3", "127.0.0.1", port, 40);
  auto from4 = open_tcp_connections("127.0.0.4", "127.0.0.1", port, 40);
  const auto all = [&] { return still_open(from2) + still_open(from3) + still_open(from4); };
  EXPECT_TRUE(eventually([&] { return all() <= 20; }, 1000ms)) << all() << " open in total";
  const auto held = std::chrono::steady_clock::now() - t0;
  if (held < 1400ms) {
    EXPECT_GT(all(), 0u) << "the bounds closed every connection";
  }
  // Meanwhile a worker and a legitimate client are served (the client once the idle ones time out).
  auto worker = svc.start_worker("w1");
  client::connection alice(ep, curve_options(k.alice, k.server, 30s));
  auto sub = native_submit("j", circuit, seed(), "net");
  sub.zkey = key_id;
  EXPECT_TRUE(alice.submit(sub).created) << server_logs(svc);
  const auto r = alice.wait("j", 60s);
  ASSERT_TRUE(std::holds_alternative<proto::proof_reply>(r));
  EXPECT_TRUE(eventually([&] { return all() == 0; }, 4s))
      << all() << " idle connections outlived the handshake timeout";
  EXPECT_GT(metric(mport, "cuzk_network_refused_total{reason=\"per_address\"}"), 0);
  EXPECT_GT(metric(mport, "cuzk_network_refused_total{reason=\"total\"}"), 0);
  EXPECT_GT(metric(mport, "cuzk_network_closed_total{reason=\"handshake\"}"), 0);
  EXPECT_NE(server_logs(svc).find("the limit per address is 8"), std::string::npos);
  for (auto* v : {&from2, &from3, &from4})
    for (int fd : *v)
      if (fd >= 0) ::close(fd);
  EXPECT_TRUE(server->running());
}

TEST(NetworkTransport, AFloodFromManyAddressesStaysBelowTheDescriptorLimitAndIsNeverFatal) {
  rlimit rl{};
  ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &rl), 0);
  rlimit raised{std::max<rlim_t>(rl.rlim_cur, 4096), std::max<rlim_t>(rl.rlim_max, 4096)};
  ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &raised), 0) << "the flood needs 1200 descriptors here";
  service svc({"2x4096"});
  const auto k = make_keys(svc);
  const auto key_id = load_srs(svc, key_for(circuit).path);
  svc.server_wrapper = {"/usr/bin/prlimit", "--nofile=1024:1024", "--"};
  auto server = svc.start_server({}, curve_args(svc));  // the default bounds
  const auto ep = network_endpoint(svc);
  ASSERT_FALSE(ep.empty()) << server_logs(svc);
  client::connection alice(ep, curve_options(k.alice, k.server, 20s));
  (void)alice.status();
  std::vector<std::vector<int>> flood;
  for (int a = 2; a < 8; ++a)
    flood.push_back(open_tcp_connections("127.0.0." + std::to_string(a), "127.0.0.1", port_of(ep), 200));
  const auto open = [&] {
    unsigned n = 0;
    for (const auto& v : flood) n += still_open(v);
    return n;
  };
  // (1024 - 256 reserved - 384 for the ipc socket) / 2 = 192 fit beside the ipc bound.
  EXPECT_TRUE(eventually([&] { return open() <= 192; }, 3000ms)) << open() << " flooding connections open";
  auto worker = svc.start_worker("w1");
  auto sub = native_submit("j", circuit, seed(), "net");
  sub.zkey = key_id;
  EXPECT_TRUE(alice.submit(sub).created) << server_logs(svc);
  EXPECT_TRUE(std::holds_alternative<proto::proof_reply>(alice.wait("j", 60s))) << server_logs(svc);
  EXPECT_TRUE(server->running()) << "the server died of descriptors:\n" << server_logs(svc);
  for (auto& v : flood)
    for (int fd : v)
      if (fd >= 0) ::close(fd);
  ::setrlimit(RLIMIT_NOFILE, &rl);
}

TEST(NetworkTransport, ABadFileInTheClientsDirectoryNeverHoldsBackARevocation) {
  service svc({"2x4096"});
  const auto k = make_keys(svc);
  auto server = svc.start_server({}, curve_args(svc));
  const auto ep = network_endpoint(svc);
  ASSERT_FALSE(ep.empty()) << server_logs(svc);
  const auto mport = metrics_port(svc.dir());
  client::connection alice(ep, curve_options(k.alice, k.server, 5s));
  (void)alice.status();
  std::ofstream(svc.dir() / "clients.d" / "junk.pub") << "not a key\n";
  std::this_thread::sleep_for(100ms);
  fs::remove(svc.dir() / "clients.d" / "alice.pub");
  const auto removed = std::chrono::steady_clock::now();
  const bool refused = eventually(
      [&] {
        client::connection again(ep, curve_options(k.alice, k.server, 500ms));
        try {
          (void)again.status();
          return false;
        } catch (const client::unreachable&) {
          return true;
        }
      },
      4s);
  EXPECT_TRUE(refused) << "a removed key is still authorized:\n" << server_logs(svc);
  EXPECT_LT(std::chrono::steady_clock::now() - removed, 2500ms);
  EXPECT_TRUE(eventually([&] { return metric(mport, "cuzk_network_closed_total{reason=\"revoked\"}") >= 1; }, 3s))
      << "alice's open connection outlived her key";
  EXPECT_NE(server_logs(svc).find("junk.pub is refused"), std::string::npos) << server_logs(svc);
  client::connection bob(ep, curve_options(k.bob, k.server, 5s));
  EXPECT_NO_THROW((void)bob.status()) << "the bad file locked out the others";
}

}  // namespace
}  // namespace cuzk::test
