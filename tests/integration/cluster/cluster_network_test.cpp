// A cluster across network namespaces (issue 22, label cluster; needs root
// and iproute2, which scripts/setup.sh installs): clients run the cuzk CLI
// in a namespace of their own and reach the nodes over TCP with CURVE keys;
// a node whose namespace's link goes down mid-proof loses its job to
// another node, which proves it, and the cut node's late result is
// discarded once its link is back: every job completes exactly once.
#include <gtest/gtest.h>
#include <unistd.h>

#include <csignal>
#include <fstream>
#include <regex>

#include "cluster/cluster_store.hpp"
#include "harness.hpp"
#include "netns.hpp"
#include "pg_server.hpp"
#include "run.hpp"
#include "seed.hpp"

namespace cuzk::test {
namespace {

using namespace std::chrono_literals;

const std::string circuit = "chain:size=64";

std::vector<std::string> cluster_args(const std::string& conninfo, const std::string& name, const std::string& key_id) {
  return {"--cluster-database",   conninfo, "--cluster-node", name,  "--cluster-heartbeat", "0.5",
          "--cluster-dead-after", "3",      "--key",          key_id};
}

std::string logs(const service& svc) { return server_logs(svc); }

std::string json_file(const fs::path& p) { return read_all(p); }

TEST(ClusterNetwork, ClientsInANamespaceReachEveryNodeWithTheirKeysAndSeeOnlyTheirJobs) {
  netns clients(0);
  pg_server pg;
  // Two nodes, each serving tcp on the host's end of the clients' link, and the same authorized clients.
  std::vector<std::unique_ptr<service>> nodes;
  std::vector<std::unique_ptr<process>> servers, workers;
  nodes.push_back(std::make_unique<service>(std::vector<std::string>{"1x4096"}));
  nodes.push_back(std::make_unique<service>(std::vector<std::string>{"1x4096"}));
  const auto keys = nodes[0]->dir() / "keys";
  fs::create_directories(keys / "clients.d");
  for (const char* who : {"server", "alice", "bob", "mallory"}) {
    const auto path = keys / (std::string(who) + ".key");
    ASSERT_EQ(std::system((cli_bin() + " keygen --out " + path.string() + " > /dev/null 2>&1").c_str()), 0) << who;
  }
  for (const char* who : {"alice", "bob"})
    fs::copy_file(keys / (std::string(who) + ".key.pub"), keys / "clients.d" / (std::string(who) + ".pub"));
  std::vector<std::string> endpoints;
  std::string key_id;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    key_id = load_srs(*nodes[i], key_for(circuit).path);
    auto args = cluster_args(pg.conninfo(), "n" + std::to_string(i), key_id);
    args.insert(args.end(), {"--network-endpoint", "tcp://" + clients.host_address() + ":*", "--server-key",
                             (keys / "server.key").string(), "--clients-dir", (keys / "clients.d").string(),
                             "--spool-dir", (nodes[i]->dir() / "spool").string()});
    servers.push_back(nodes[i]->start_server({}, args));
    workers.push_back(nodes[i]->start_worker("w" + std::to_string(i)));
    endpoints.push_back(network_endpoint(*nodes[i]));
    ASSERT_FALSE(endpoints.back().empty()) << logs(*nodes[i]);
  }
  const auto work = nodes[0]->dir();
  auto cli = [&](const std::string& who, std::size_t node, const std::string& args) {
    return run(clients.exec_shell() + cli_bin() + " " + args + " --endpoint " + endpoints[node] + " --curve-key " +
               (keys / (who + ".key")).string() + " --server-public " + (keys / "server.key.pub").string());
  };
  // alice streams a witness to node 0 from her namespace, and waits for the proof on node 1.
  const auto wtns = witness_file(work, "alice.wtns", circuit, seed());
  auto r = cli("alice", 0, "submit --upload --wtns " + wtns.string() + " --zkey " + key_id + " --job-id a1");
  ASSERT_EQ(r.rc, 0) << r.out << r.err << logs(*nodes[0]);
  r = cli("alice", 1,
          "wait --job-id a1 --timeout 120 --proof " + (work / "a1.proof.json").string() + " --public " +
              (work / "a1.public.json").string());
  ASSERT_EQ(r.rc, 0) << r.out << r.err << logs(*nodes[0]) << logs(*nodes[1]);
  EXPECT_TRUE(verifies(*key_for(circuit).pk, json_file(work / "a1.proof.json"), json_file(work / "a1.public.json")));
  // A native job over node 1, fetched on node 0.
  std::ofstream(work / "in.json") << inputs_for(circuit, seed() + 1);
  r = cli("alice", 1,
          "submit --circuit " + circuit + " --inputs " + (work / "in.json").string() + " --zkey " + key_id +
              " --job-id a2");
  ASSERT_EQ(r.rc, 0) << r.out << r.err;
  r = cli("alice", 0,
          "wait --job-id a2 --timeout 120 --proof " + (work / "a2.proof.json").string() + " --public " +
              (work / "a2.public.json").string());
  ASSERT_EQ(r.rc, 0) << r.out << r.err;
  EXPECT_TRUE(verifies(*key_for(circuit).pk, json_file(work / "a2.proof.json"), json_file(work / "a2.public.json")));
  // bob is another client on every node: alice's jobs are not his.
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    r = cli("bob", i,
            "wait --job-id a1 --timeout 5 --proof " + (work / "b.proof.json").string() + " --public " +
                (work / "b.public.json").string());
    EXPECT_NE(r.rc, 0) << "bob read alice's job on node " << i;
    EXPECT_NE((r.out + r.err).find("no job a1"), std::string::npos) << r.out << r.err;
  }
  // mallory's key was never authorized: refused at the handshake on every node.
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    r = cli("mallory", i,
            "wait --request-timeout 1 --job-id a1 --timeout 2 --proof " + (work / "m.proof.json").string() +
                " --public " + (work / "m.public.json").string());
    EXPECT_EQ(r.rc, 3) << r.out << r.err;
    EXPECT_FALSE(fs::exists(work / "m.proof.json"));
  }
  // The database names the clients, not uids: the same job id under alice and under bob are two jobs.
  auto db = server::cluster_store(pg.conninfo());
  ASSERT_TRUE(db.find("net:alice", "a1"));
  EXPECT_EQ(db.find("net:alice", "a1")->state, server::cluster_state::done);
  EXPECT_FALSE(db.find("net:bob", "a1"));
}

TEST(ClusterNetwork, ANodeCutFromTheNetworkMidProofLosesItsJobAndEveryJobCompletesOnce) {
  netns cut(1);
  pg_server pg({{cut.host_address(), cut.address() + "/32"}});
  service a_svc({"1x4096"}), b_svc({"1x4096"});
  const auto key_a = load_srs(a_svc, key_for(circuit).path), key_b = load_srs(b_svc, key_for(circuit).path);
  // a runs in the namespace and reaches the database over its link; its workers and clients use its ipc sockets.
  a_svc.server_wrapper = cut.exec_prefix();
  auto a = a_svc.start_server({}, [&] {
    auto args = cluster_args(pg.conninfo_at(cut.host_address()), "a", key_a);
    args.push_back("--hold-proving");
    return args;
  }());
  auto a_worker = a_svc.start_worker("a-w");
  auto ca = a_svc.connect(20s);
  ASSERT_TRUE(ca.submit(native_submit("j0", circuit, seed(), "cut")).created) << logs(a_svc);
  ASSERT_TRUE(
      eventually([&] { return ca.status("j0").partitions.at(0).state == proto::partition_state::synthesized; }, 60s))
      << logs(a_svc);
  auto b = b_svc.start_server({}, cluster_args(pg.conninfo(), "b", key_b));
  auto b_worker = b_svc.start_worker("b-w");
  // Mid-proof: a's link goes down and a proves what it holds; its report cannot reach the database.
  cut.cut();
  ASSERT_EQ(::kill(a->pid(), SIGUSR2), 0);
  ASSERT_TRUE(eventually([&] { return logs(a_svc).find("proven job=") != std::string::npos; }, 60s)) << logs(a_svc);
  // b retakes j0 once a has been silent for the timeout, and proves it.
  auto cb = b_svc.connect(20s);
  const auto r = cb.wait("j0", 120s);
  ASSERT_TRUE(std::holds_alternative<proto::proof_reply>(r)) << logs(b_svc);
  const auto& part = std::get<proto::proof_reply>(r).partitions.at(0);
  EXPECT_TRUE(verifies(*key_for(circuit).pk, part.proof_json, part.public_json));
  const std::string me = "uid:" + std::to_string(::getuid());
  auto db = server::cluster_store(pg.conninfo());
  EXPECT_EQ(db.find(me, "j0")->node, "b");
  const auto proof_b = db.find(me, "j0")->results;
  // a's link comes back: its late result is refused and discarded; the stored proof stays b's.
  cut.restore();
  ASSERT_TRUE(eventually([&] { return logs(a_svc).find("its result is discarded") != std::string::npos; }, 60s))
      << logs(a_svc);
  EXPECT_EQ(db.find(me, "j0")->node, "b");
  EXPECT_EQ(db.find(me, "j0")->results, proof_b);
  EXPECT_TRUE(a->running()) << "the cut node kept serving";
}

}  // namespace
}  // namespace cuzk::test
