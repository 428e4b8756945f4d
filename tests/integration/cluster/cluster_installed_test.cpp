// A circom circuit installed by name on the nodes of one cluster (issue 39,
// label cluster): a job submitted with its inputs on a node without workers
// is claimed by another, whose worker runs the circuit's witness generator
// on the inputs the database carried, and is answered on the first; a node
// where the circuit is not installed never claims it (a cluster queues it
// under the circuit's id, which hashes its key and generator). The
// circuit is the witness fixture's (circomlib, compiled by circom2 for
// bn128: tests/interop/witness).
#include <gtest/gtest.h>
#include <unistd.h>

#include <thread>

#include "client/lib/errors.hpp"
#include "cluster/cluster_store.hpp"
#include "curves/bn254.hpp"
#include "harness.hpp"
#include "io/zkey.hpp"
#include "job/circuit_store.hpp"
#include "pg_server.hpp"
#include "shm/shm_dir.hpp"

namespace cuzk::test {
namespace {

using namespace std::chrono_literals;

const fs::path fixture = fs::path(CUZK_WITNESS_FIXTURE) / "bn128";
const std::string me = "uid:" + std::to_string(::getuid());

struct node {
  node(const std::string& name, const pg_server& pg, bool installed) : name(name), conninfo(pg.conninfo()) {
    svc = std::make_unique<service>(std::vector<std::string>{"1x4096"});
    key_id = load_srs(*svc, (fixture / "bounded.zkey").string());
    if (installed)
      job::install_circuit(svc->pool(), "bounded", key_id,
                           job::witness_generator::at(fixture / "bounded_cpp" / "bounded"));
  }
  void start() {
    server = svc->start_server({}, {"--cluster-database", conninfo, "--cluster-node", name, "--cluster-heartbeat",
                                    "0.5", "--cluster-dead-after", "3"});
  }
  void add_worker() { workers.push_back(svc->start_worker(name + "-w" + std::to_string(workers.size()))); }

  std::string name, conninfo, key_id;
  std::unique_ptr<service> svc;
  std::unique_ptr<process> server;
  std::vector<std::unique_ptr<process>> workers;
};

proto::submit installed(const std::string& id) {
  proto::submit s;
  s.job_id = id;
  s.client = "cluster";
  s.work = proto::installed_work{"bounded", R"({"x": ["11", "22", "33", "44"], "bound": "1000"})"};  // below the bound
  return s;
}

std::string logs(const std::vector<node*>& nodes) {
  std::string out;
  for (auto* n : nodes) out += "---- node " + n->name + "\n" + server_logs(*n->svc);
  return out;
}

/* a started without workers, holding a job of the circuit in its one slot: what it accepts next, others prove. */
void busy(node& a, const pg_server& pg, client::connection& ca) {
  a.start();
  ASSERT_TRUE(ca.submit(installed("c0")).created) << logs({&a});
  ASSERT_TRUE(eventually(
      [&] {
        const auto j = server::cluster_store(pg.conninfo()).find(me, "c0");
        return j && j->node == "a";
      },
      20s))
      << logs({&a});
}

std::string node_of(const pg_server& pg, const std::string& id) {
  const auto j = server::cluster_store(pg.conninfo()).find(me, id);
  return j ? j->node : "";
}

TEST(ClusterInstalled, ACircomJobSubmittedOnOneNodeIsProvenFromItsInputsByAnother) {
  ASSERT_TRUE(fs::exists(fixture / "bounded.zkey")) << "no " << fixture << ": the fixture interop.witness.fixture";
  pg_server pg;
  node a("a", pg, true), b("b", pg, true);
  auto ca = a.svc->connect(20s);
  busy(a, pg, ca);
  b.start();
  b.add_worker();
  ASSERT_TRUE(ca.submit(installed("c1")).created) << logs({&a, &b});
  const auto r = ca.wait("c1", 120s);
  ASSERT_TRUE(std::holds_alternative<proto::proof_reply>(r)) << logs({&a, &b});
  const auto& part = std::get<proto::proof_reply>(r).partitions.at(0);
  const auto pk = io::read_zkey_file<curves::bn254>(fixture / "bounded.zkey");
  EXPECT_TRUE(verifies(pk, part.proof_json, part.public_json));
  EXPECT_EQ(node_of(pg, "c1"), "b");
  // b's inputs file went with its job.
  EXPECT_TRUE(eventually(
      [&] {
        for (const auto& e : fs::directory_iterator(shm::shm_dir()))
          if (e.path().filename().string().starts_with(b.svc->pool() + ".inputs.")) return false;
        return true;
      },
      10s))
      << "b kept an inputs file";
}

TEST(ClusterInstalled, OnlyANodeWhereTheCircuitIsInstalledClaimsItsJobs) {
  ASSERT_TRUE(fs::exists(fixture / "bounded.zkey")) << "no " << fixture << ": the fixture interop.witness.fixture";
  pg_server pg;
  node a("a", pg, true), b("b", pg, false), c("c", pg, true);
  auto ca = a.svc->connect(20s);
  busy(a, pg, ca);
  b.start();  // it holds the circuit's key in its pool, not the circuit
  b.add_worker();
  ASSERT_TRUE(ca.submit(installed("c2")).created) << logs({&a, &b});
  std::this_thread::sleep_for(3s);  // b polls every 0.5 s
  EXPECT_EQ(node_of(pg, "c2"), "") << "claimed by a node without the circuit\n" << logs({&a, &b});
  c.start();
  c.add_worker();
  const auto r = ca.wait("c2", 120s);
  ASSERT_TRUE(std::holds_alternative<proto::proof_reply>(r)) << logs({&a, &b, &c});
  EXPECT_EQ(node_of(pg, "c2"), "c");
}

}  // namespace
}  // namespace cuzk::test
