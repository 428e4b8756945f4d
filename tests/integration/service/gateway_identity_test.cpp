// A gateway's API keys as clients of their own (issue 40): a request a
// trusted gateway sends for key NAME (Envelope.on_behalf_of) is client
// "http:NAME" with a uid of its own — its own jobs and job ids, no path on
// the host — and nobody but a gateway the operator named (--gateway) may
// speak for a key. The uids survive a restart of the server.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "client/lib/errors.hpp"
#include "harness.hpp"
#include "net/curve_keys.hpp"
#include "seed.hpp"
#include "shm/shm_dir.hpp"

namespace cuzk::test {
namespace {

using namespace std::chrono_literals;

const std::string circuit = "chain:size=64";

std::vector<std::string> args(const service& svc, const std::string& endpoint = "tcp://127.0.0.1:*") {
  return {"--network-endpoint", endpoint,
          "--server-key",       (svc.dir() / "server.key").string(),
          "--clients-dir",      (svc.dir() / "clients.d").string(),
          "--gateway",          "curve:gw"};
}

proto::submit by_id(const std::string& job_id, const std::string& key_id, std::uint64_t s) {
  auto sub = native_submit(job_id, circuit, s, "gateway");
  sub.zkey = key_id;
  return sub;
}

client::options speaking_for(client::options o, const std::string& key) {
  o.on_behalf_of = key;
  return o;
}

std::string refusal(const std::function<void()>& f) {
  try {
    f();
    return "";
  } catch (const client::server_error& e) {
    return e.what();
  }
}

TEST(GatewayIdentity, AKeyAGatewaySpeaksForIsAClientOfItsOwnAndNobodyElseMaySpeakForOne) {
  service svc({"2x4096"});
  const auto k = keygen(svc, {"server", "gw", "other"}, {"gw", "other"});
  const auto key_id = load_srs(svc, key_for(circuit).path);
  auto server = svc.start_server({}, args(svc));
  auto worker = svc.start_worker("w1");
  const auto ep = network_endpoint(svc);
  ASSERT_FALSE(ep.empty()) << server_logs(svc);
  const auto gw = curve_options(k.at("gw"), k.at("server"), 20s);

  client::connection alice(ep, speaking_for(gw, "alice")), bob(ep, speaking_for(gw, "bob"));
  const auto s = seed();
  EXPECT_TRUE(alice.submit(by_id("j1", key_id, s)).created);
  ASSERT_TRUE(std::holds_alternative<proto::proof_reply>(alice.wait("j1", 120s))) << server_logs(svc);
  // Job ids are per identity: bob's j1 is another job; bob sees none of alice's.
  EXPECT_NE(refusal([&] { (void)bob.fetch("j1"); }), "");
  EXPECT_TRUE(bob.status().jobs.empty());
  EXPECT_TRUE(bob.submit(by_id("j1", key_id, s + 1)).created);
  EXPECT_EQ(alice.status().jobs.size(), 1u);
  // The gateway itself is another client: it does not see its keys' jobs.
  client::connection gateway(ep, gw);
  EXPECT_TRUE(gateway.status().jobs.empty());
  // A key names no file on the server's host.
  EXPECT_NE(refusal([&] { (void)alice.submit(native_submit("j2", circuit, s, "gateway")); }).find("not by a path"),
            std::string::npos);

  // Nobody else speaks for a key: not another network client, not a local uid the operator did not name.
  const auto not_a_gateway = "only a gateway the operator trusts";
  client::connection other(ep, speaking_for(curve_options(k.at("other"), k.at("server"), 20s), "alice"));
  EXPECT_NE(refusal([&] { (void)other.status(); }).find(not_a_gateway), std::string::npos);
  client::options local;
  local.on_behalf_of = "alice";
  client::connection here(svc.endpoint(), local);
  EXPECT_NE(refusal([&] { (void)here.fetch("j1"); }).find(not_a_gateway), std::string::npos);

  // A restarted server (on the same port) gives alice the uid her job is owned by.
  ASSERT_EQ(server->terminate(), 0);
  server = svc.start_server({}, args(svc, ep));
  client::connection again(ep, speaking_for(gw, "alice"));
  EXPECT_TRUE(std::holds_alternative<proto::proof_reply>(again.fetch("j1"))) << server_logs(svc);
  std::ifstream ids(shm::shm_path(svc.pool() + ".identities"));
  std::string a, b;
  std::getline(ids, a), std::getline(ids, b);
  EXPECT_EQ(a.substr(0, 6), "alice ");
  EXPECT_EQ(b.substr(0, 4), "bob ");
}

}  // namespace
}  // namespace cuzk::test
