// Network clients (issue 22): CURVE over TCP with keys the operator
// authorized in the clients directory; a client's name is its identity as a
// uid is on ipc; an unknown key is refused at the handshake and counted;
// plaintext only on loopback, only when asked for.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include "client/lib/errors.hpp"
#include "harness.hpp"
#include "http_get.hpp"
#include "net/curve_keys.hpp"
#include "run.hpp"
#include "seed.hpp"

namespace cuzk::test {
namespace {

using namespace std::chrono_literals;

const std::string circuit = "chain:size=64";

struct keys {
  net::curve_keypair server, alice, bob, mallory;
};

/* Keypairs made with `cuzk keygen` (0600); alice and bob authorized in dir/clients.d, mallory not. */
keys make_keys(const service& svc) {
  auto k = keygen(svc, {"server", "alice", "bob", "mallory"}, {"alice", "bob"});
  for (const char* who : {"server", "alice", "bob", "mallory"})
    EXPECT_EQ(fs::status(svc.dir() / (std::string(who) + ".key")).permissions() & fs::perms::all,
              fs::perms::owner_read | fs::perms::owner_write)
        << who;
  return {k.at("server"), k.at("alice"), k.at("bob"), k.at("mallory")};
}

proto::submit by_id(const std::string& job_id, const std::string& key_id, std::uint64_t s) {
  auto sub = native_submit(job_id, circuit, s, "net");
  sub.zkey = key_id;
  return sub;
}

std::vector<std::string> curve_args(const service& svc) {
  return {"--network-endpoint", "tcp://127.0.0.1:*",
          "--server-key",       (svc.dir() / "server.key").string(),
          "--clients-dir",      (svc.dir() / "clients.d").string(),
          "--metrics",          "127.0.0.1:0",
          "--spool-dir",        (svc.dir() / "spool").string()};
}

TEST(Network, AnAuthorizedKeyProvesOverCurveAndEachClientSeesOnlyItsOwnJobs) {
  service svc({"2x4096"});
  const auto k = make_keys(svc);
  const auto key_id = load_srs(svc, key_for(circuit).path);
  auto server = svc.start_server({}, curve_args(svc));
  auto worker = svc.start_worker("w1");
  const auto ep = network_endpoint(svc);
  ASSERT_FALSE(ep.empty()) << server_logs(svc);

  client::connection alice(ep, curve_options(k.alice, k.server, 20s));
  EXPECT_TRUE(alice.submit(by_id("j1", key_id, seed())).created);
  const auto r = alice.wait("j1", 120s);
  ASSERT_TRUE(std::holds_alternative<proto::proof_reply>(r));
  const auto& part = std::get<proto::proof_reply>(r).partitions.at(0);
  EXPECT_TRUE(verifies(*key_for(circuit).pk, part.proof_json, part.public_json));

  client::connection bob(ep, curve_options(k.bob, k.server, 20s));
  EXPECT_TRUE(bob.status().jobs.empty()) << "bob sees alice's job";
  try {
    (void)bob.fetch("j1");
    ADD_FAILURE() << "bob fetched alice's job";
  } catch (const client::server_error& e) {
    EXPECT_EQ(e.code(), proto::error_code::unknown_job) << e.what();
  }
  // Job ids are per client, as per uid: bob's j1 is another job.
  EXPECT_TRUE(bob.submit(by_id("j1", key_id, seed() + 1)).created);
  EXPECT_TRUE(std::holds_alternative<proto::proof_reply>(bob.wait("j1", 120s)));
  // A circom job from the network: its witness streams over the CURVE connection.
  alice.upload("w1", proto::upload_kind::wtns, witness_file(svc.dir(), "a.wtns", circuit, seed() + 2), key_id);
  proto::submit circom = by_id("c1", key_id, 0);
  circom.work = proto::circom_work{"upload:w1", std::nullopt};
  EXPECT_TRUE(alice.submit(circom).created);
  const auto rc = alice.wait("c1", 120s);
  ASSERT_TRUE(std::holds_alternative<proto::proof_reply>(rc));
  const auto& cp = std::get<proto::proof_reply>(rc).partitions.at(0);
  EXPECT_TRUE(verifies(*key_for(circuit).pk, cp.proof_json, cp.public_json));
  const auto mine = alice.status();
  ASSERT_EQ(mine.jobs.size(), 2u);

  // The CLI as a remote user would run it: keys from files, the witness streamed.
  const auto wtns = witness_file(svc.dir(), "cli.wtns", circuit, seed() + 3);
  const auto proof = svc.dir() / "p.json", pub = svc.dir() / "pub.json";
  const auto out = run(cli_bin() + " submit --endpoint " + ep + " --curve-key " + (svc.dir() / "bob.key").string() +
                       " --server-public " + (svc.dir() / "server.key.pub").string() + " --zkey " + key_id +
                       " --wtns " + wtns.string() + " --job-id cli-1 --wait --proof " + proof.string() + " --public " +
                       pub.string() + " --timeout 120");
  ASSERT_EQ(out.rc, 0) << out.out << out.err;
  EXPECT_TRUE(verifies(*key_for(circuit).pk, read_all(proof), read_all(pub)));

  // The operator (a local root client) sees all four, owned by two different uids.
  auto root = svc.connect();
  EXPECT_EQ(root.status().jobs.size(), 4u);
  EXPECT_EQ(server->terminate(), 0);
}

TEST(Network, AKeyTheOperatorNeverAuthorizedIsRefusedAtTheHandshakeAndCounted) {
  service svc({"2x4096"});
  const auto k = make_keys(svc);
  const auto key_id = load_srs(svc, key_for(circuit).path);
  auto server = svc.start_server({}, curve_args(svc));
  const auto ep = network_endpoint(svc);
  const auto port = metrics_port(svc.dir());
  ASSERT_FALSE(ep.empty());
  ASSERT_NE(port, 0);

  client::connection mallory(ep, curve_options(k.mallory, k.server, 1500ms));
  EXPECT_THROW((void)mallory.submit(by_id("m1", key_id, seed())), client::unreachable);
  const std::regex refused("cuzk_network_handshakes_total\\{result=\"refused\"\\} ([0-9]+)");
  std::string text;  // counted by the server's ZAP handler, which may reach the handshake after the client gave up
  EXPECT_TRUE(eventually(
      [&] {
        text = http_request(port, "/metrics").body;
        std::smatch m;
        return std::regex_search(text, m, refused) && std::stoul(m[1]) >= 1;
      },
      30s))
      << text;

  // A client that claims to be the server, or names the wrong server key, is refused too.
  client::connection wrong(ep, curve_options(k.alice, k.mallory, 1500ms));
  EXPECT_THROW((void)wrong.status(), client::unreachable);

  // The server keeps serving authorized clients; revoking one is removing its file.
  client::connection bob(ep, curve_options(k.bob, k.server, 20s));
  EXPECT_TRUE(bob.status().jobs.empty());
  fs::remove(svc.dir() / "clients.d" / "bob.pub");
  std::this_thread::sleep_for(1100ms);  // the directory's mtime must move on coarse clocks
  fs::last_write_time(svc.dir() / "clients.d", fs::file_time_type::clock::now());
  client::connection bob_again(ep, curve_options(k.bob, k.server, 1500ms));
  EXPECT_THROW((void)bob_again.status(), client::unreachable);
  client::connection alice(ep, curve_options(k.alice, k.server, 20s));
  EXPECT_TRUE(alice.status().jobs.empty());
  EXPECT_EQ(server->terminate(), 0);
}

TEST(Network, ANetworkClientNamesKeysByIdAndNoServerPath) {
  service svc({"2x4096"});
  const auto k = make_keys(svc);
  auto server = svc.start_server({}, curve_args(svc));
  const auto ep = network_endpoint(svc);
  ASSERT_FALSE(ep.empty()) << server_logs(svc);
  client::connection alice(ep, curve_options(k.alice, k.server, 20s));
  auto by_path = native_submit("p1", circuit, seed(), "net");  // a key file path on the server's host
  try {
    (void)alice.submit(by_path);
    ADD_FAILURE() << "a network client named a server path";
  } catch (const client::server_error& e) {
    EXPECT_EQ(e.code(), proto::error_code::bad_request);
    EXPECT_NE(std::string(e.what()).find("names a key by its id"), std::string::npos) << e.what();
  }
  EXPECT_EQ(server->terminate(), 0);
}

TEST(Network, PlaintextTcpIsOnlyForLoopbackAndOnlyWhenAskedFor) {
  service svc({"2x4096"});
  for (const auto& [args, says] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"--network-endpoint", "tcp://0.0.0.0:*"}, "needs --server-key"},
           {{"--network-endpoint", "tcp://0.0.0.0:*", "--insecure-loopback"}, "loopback address only"}}) {
    auto s = svc.start_server({}, args);
    auto st = s->wait_exit(30s);
    ASSERT_TRUE(st && WIFEXITED(*st));
    EXPECT_NE(WEXITSTATUS(*st), 0);
    EXPECT_NE(server_logs(svc).find(says), std::string::npos) << server_logs(svc);
  }
  const auto key_id = load_srs(svc, key_for(circuit).path);
  auto server = svc.start_server({}, {"--network-endpoint", "tcp://127.0.0.1:*", "--insecure-loopback"});
  auto worker = svc.start_worker("w1");
  const auto ep = network_endpoint(svc);
  ASSERT_FALSE(ep.empty()) << server_logs(svc);
  client::options o;
  o.timeout = 20s;
  client::connection plain(ep, o);
  EXPECT_TRUE(plain.submit(by_id("l1", key_id, seed())).created);
  EXPECT_TRUE(std::holds_alternative<proto::proof_reply>(plain.wait("l1", 120s)));
  EXPECT_EQ(server->terminate(), 0);
}

}  // namespace
}  // namespace cuzk::test
