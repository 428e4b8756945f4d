// Nodes of one cluster end to end (issue 22, label cluster): real
// cuzk-gpu-server and cuzk-synth-worker processes on pools of their own,
// one real PostgreSQL server as the job queue. A job submitted on one node
// is proven by another and answered on every node; a node killed with
// SIGKILL loses its claims to the others after the dead-node timeout and
// its late result is refused; a node restarted in time finishes its claimed
// jobs from its pool without synthesizing them again; the database going
// away is answered with a sentence, and what was proven meanwhile reaches it
// once it is back.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <optional>
#include <regex>

#include "client/lib/errors.hpp"
#include "cluster/cluster_store.hpp"
#include "harness.hpp"
#include "pg_server.hpp"
#include "seed.hpp"

namespace cuzk::test {
namespace {

using namespace std::chrono_literals;

const std::string circuit = "chain:size=64";

/* One node: its own pool and endpoint, a server in the cluster, and its workers. */
struct node {
  node(const std::string& name, const pg_server& pg, unsigned slots = 1) : name(name), conninfo(pg.conninfo()) {
    svc = std::make_unique<service>(std::vector<std::string>{std::to_string(slots) + "x4096"});
    key_id = load_srs(*svc, key_for(circuit).path);
  }
  void start(std::vector<std::string> extra = {}, std::chrono::seconds dead_after = 3s) {
    std::vector<std::string> args{"--cluster-database",
                                  conninfo,
                                  "--cluster-node",
                                  name,
                                  "--cluster-heartbeat",
                                  "0.5",
                                  "--cluster-dead-after",
                                  std::to_string(dead_after.count()),
                                  "--key",
                                  key_id,
                                  "--spool-dir",
                                  (svc->dir() / "spool").string()};
    args.insert(args.end(), extra.begin(), extra.end());
    server = svc->start_server({}, args);
  }
  void add_worker() { workers.push_back(svc->start_worker(name + "-w" + std::to_string(workers.size()))); }
  client::connection connect() { return svc->connect(20s); }

  std::string name, conninfo, key_id;
  std::unique_ptr<service> svc;
  std::unique_ptr<process> server;
  std::vector<std::unique_ptr<process>> workers;
};

const std::string me = "uid:" + std::to_string(::getuid());

proto::submit job(const std::string& id, std::uint64_t s) { return native_submit(id, circuit, s, "cluster"); }

void expect_proof(const client::job_outcome& r, const std::string& what) {
  ASSERT_TRUE(std::holds_alternative<proto::proof_reply>(r)) << what;
  const auto& part = std::get<proto::proof_reply>(r).partitions.at(0);
  EXPECT_TRUE(verifies(*key_for(circuit).pk, part.proof_json, part.public_json)) << what;
}

/* The node the database says holds (or proved) the job. */
std::string node_of(const pg_server& pg, const std::string& job_id) {
  auto j = server::cluster_store(pg.conninfo()).find(me, job_id);
  return j ? j->node : "";
}

std::string state_of(const pg_server& pg, const std::string& job_id) {
  auto j = server::cluster_store(pg.conninfo()).find(me, job_id);
  return j ? std::string(server::name(j->state)) : "";
}

/* n started holding proving (--hold-proving) with one worker, and job_id submitted on it: its partition is
   synthesized and waits in n's pool. */
void hold_synthesized(node& n, const std::string& job_id, std::chrono::seconds dead_after = 3s);

std::string logs(const std::vector<node*>& nodes) {
  std::string out;
  for (auto* n : nodes) out += "---- node " + n->name + "\n" + server_logs(*n->svc);
  return out;
}

void hold_synthesized(node& n, const std::string& job_id, std::chrono::seconds dead_after) {
  n.start({"--hold-proving"}, dead_after);
  n.add_worker();
  auto c = n.connect();
  EXPECT_TRUE(c.submit(job(job_id, seed())).created) << logs({&n});
  EXPECT_TRUE(
      eventually([&] { return c.status(job_id).partitions.at(0).state == proto::partition_state::synthesized; }, 60s))
      << logs({&n});
}

TEST(ClusterService, AJobSubmittedOnOneNodeIsProvenByAnotherAndAnsweredOnEvery) {
  pg_server pg;
  node a("a", pg), b("b", pg), c("c", pg);
  // a takes j0 first and, with no worker, keeps its one slot busy: what follows is the others' to prove.
  a.start();
  auto ca = a.connect();
  const auto s = seed();
  ASSERT_TRUE(ca.submit(job("j0", s)).created) << logs({&a});
  ASSERT_TRUE(eventually([&] { return node_of(pg, "j0") == "a"; }, 20s)) << logs({&a});
  for (auto* n : {&b, &c}) {
    n->start();
    n->add_worker();
  }
  for (int i = 1; i <= 4; ++i) EXPECT_TRUE(ca.submit(job("j" + std::to_string(i), s + i)).created);
  // A Wait on a for a job another node proves: the database's notification wakes it.
  expect_proof(ca.wait("j1", 120s), "wait on a for j1\n" + logs({&a, &b, &c}));
  auto cb = b.connect(), cc = c.connect();
  for (int i = 2; i <= 4; ++i) expect_proof(cc.wait("j" + std::to_string(i), 120s), "wait on c");
  std::set<std::string> provers;
  for (int i = 1; i <= 4; ++i) provers.insert(node_of(pg, "j" + std::to_string(i)));
  EXPECT_FALSE(provers.count("a")) << "a had no room";
  for (const auto& n : provers) EXPECT_TRUE(n == "b" || n == "c") << n;
  expect_proof(cb.fetch("j3"), "fetch on b");
  EXPECT_EQ(cb.status("j4").state, proto::job_state::done);
  EXPECT_EQ(ca.status("j0").state, proto::job_state::running) << "j0 stays a's";
  // Idempotent across the cluster: the same request on another node is the same job; another request is a conflict.
  const auto again = cc.submit(job("j1", s + 1));
  EXPECT_FALSE(again.created);
  EXPECT_EQ(again.state, proto::job_state::done);
  try {
    (void)cb.submit(job("j1", s + 99));
    ADD_FAILURE() << "a different request under a known id was accepted";
  } catch (const client::server_error& e) {
    EXPECT_EQ(e.code(), proto::error_code::conflict) << e.what();
  }
  // A streamed witness travels with its job: submitted on b, proven wherever; the same Submit again
  // (its upload consumed, now the cluster's) is the same job.
  cb.upload("w5", proto::upload_kind::wtns, witness_file(b.svc->dir(), "j5.wtns", circuit, s + 5), b.key_id);
  proto::submit streamed = job("j5", 0);
  streamed.zkey = b.key_id;
  streamed.work = proto::circom_work{"upload:w5", std::nullopt};
  EXPECT_TRUE(cb.submit(streamed).created);
  expect_proof(cc.wait("j5", 120s), "the streamed job, waited for on c\n" + logs({&a, &b, &c}));
  EXPECT_FALSE(cc.submit(streamed).created) << "resubmitted on another node, without its upload";
  // The database records which node holds which key.
  const auto known = server::cluster_store(pg.conninfo()).nodes();
  ASSERT_EQ(known.size(), 3u);
  for (const auto& [name, keys] : known) {
    EXPECT_TRUE(name == "a" || name == "b" || name == "c") << name;
    EXPECT_NE(std::find(keys.begin(), keys.end(), a.key_id), keys.end()) << name << " does not list the key it holds";
  }
  // Every node lists the client's jobs from the database.
  EXPECT_EQ(cc.status().jobs.size(), 6u);
  // Another uid's view would be its own: the owner is the identity on every node.
  try {
    (void)cb.fetch("j9");
    ADD_FAILURE() << "an unknown job was answered";
  } catch (const client::server_error& e) {
    EXPECT_EQ(e.code(), proto::error_code::unknown_job) << e.what();
  }
}

TEST(ClusterService, ASilentNodesJobsAreRetakenAndItsLateResultDiscarded) {
  pg_server pg;
  node a("a", pg), b("b", pg);
  // a synthesizes j0 and holds the proof (--hold-proving), then dies with SIGKILL.
  hold_synthesized(a, "j0");
  if (HasFailure()) return;
  a.server->kill9();
  a.workers.clear();
  b.start();
  b.add_worker();
  auto cb = b.connect();
  const auto t0 = std::chrono::steady_clock::now();
  expect_proof(cb.wait("j0", 120s), "b retakes j0\n" + logs({&a, &b}));
  EXPECT_EQ(node_of(pg, "j0"), "b");
  EXPECT_GE(std::chrono::steady_clock::now() - t0, 1s) << "retaken before a's heartbeat aged";
  EXPECT_NE(server_logs(*b.svc).find("of silent nodes returned to the queue"), std::string::npos) << logs({&b});
  // a comes back with j0 FILLED in its pool: b holds the job now, so a drops it rather than proving it.
  a.start();
  ASSERT_TRUE(
      eventually([&] { return server_logs(*a.svc).find("another node holds it now") != std::string::npos; }, 30s))
      << logs({&a});
  EXPECT_EQ(node_of(pg, "j0"), "b");
  EXPECT_EQ(state_of(pg, "j0"), "done");
}

TEST(ClusterService, ARestartedNodeFinishesItsClaimedJobFromItsPoolWithoutSynthesizingAgain) {
  pg_server pg;
  node a("a", pg);
  hold_synthesized(a, "j0", 60s);
  if (HasFailure()) return;
  // The server and its only worker die: the slot stays FILLED in the pool, the claim a's in the database.
  a.workers.clear();
  a.server->kill9();
  a.start({}, 60s);  // no worker: only the pool's synthesized partition can finish the job
  auto again = a.connect();
  expect_proof(again.wait("j0", 120s), "a finishes j0 after its restart\n" + logs({&a}));
  EXPECT_EQ(node_of(pg, "j0"), "a");
}

TEST(ClusterService, TheDatabaseGoingAwayIsAnsweredAndWhatWasProvenMeanwhileReachesItWhenBack) {
  pg_server pg;
  node a("a", pg), b("b", pg);
  hold_synthesized(a, "j0");
  if (HasFailure()) return;
  auto ca = a.connect();
  b.start();  // after a took j0: b has no worker, and answers for a's job
  auto cb = b.connect();
  EXPECT_EQ(cb.status("j0").state, proto::job_state::running);
  pg.stop();
  // Every request that needs the database is answered with why, at once; the servers keep serving.
  for (auto* c : {&ca, &cb}) {
    try {
      (void)c->submit(job("j1", seed() + 1));
      ADD_FAILURE() << "a Submit was accepted with no database";
    } catch (const client::server_error& e) {
      EXPECT_EQ(e.code(), proto::error_code::unavailable) << e.what();
      EXPECT_NE(std::string(e.what()).find("cluster database"), std::string::npos) << e.what();
    }
    try {
      (void)c->status("j0");
      ADD_FAILURE() << "a Status was answered with no database";
    } catch (const client::server_error& e) {
      EXPECT_EQ(e.code(), proto::error_code::unavailable) << e.what();
    }
  }
  // a proves j0 while the database is away: the proof waits in a's pool.
  ASSERT_EQ(::kill(a.server->pid(), SIGUSR2), 0);
  ASSERT_TRUE(eventually([&] { return server_logs(*a.svc).find("proven job=") != std::string::npos; }, 60s))
      << logs({&a});
  std::this_thread::sleep_for(1500ms);  // a's report fails at least once
  EXPECT_TRUE(a.server->running());
  EXPECT_TRUE(b.server->running());
  pg.start();
  expect_proof(cb.wait("j0", 60s), "j0's proof reaches the database once it is back\n" + logs({&a, &b}));
  EXPECT_TRUE(cb.submit(job("j1", seed() + 1)).created);
}

}  // namespace
}  // namespace cuzk::test

namespace cuzk::test {
namespace {

TEST(ClusterService, ACancelledJobFailsInTheDatabaseAndIsAnsweredSoOnEveryNode) {
  pg_server pg;
  node a("a", pg), b("b", pg);
  a.start();  // no worker: the job stays queued or claimed by a
  b.start();
  auto ca = a.connect(), cb = b.connect();
  ASSERT_TRUE(ca.submit(job("x1", seed())).created) << logs({&a, &b});
  const auto st = cb.cancel("x1");  // on another node than the one it was submitted on
  EXPECT_EQ(st.state, proto::job_state::failed) << logs({&a, &b});
  EXPECT_EQ(st.error, "cancelled by its client");
  EXPECT_EQ(state_of(pg, "x1"), "failed");
  const auto w = ca.wait("x1", 20s);
  ASSERT_TRUE(std::holds_alternative<proto::job_status>(w));
  EXPECT_EQ(std::get<proto::job_status>(w).state, proto::job_state::failed);
  try {
    (void)cb.cancel("no-such-job");
    ADD_FAILURE() << "an unknown job was cancelled";
  } catch (const client::server_error& e) {
    EXPECT_EQ(e.code(), proto::error_code::unknown_job) << e.what();
  }
}

}  // namespace
}  // namespace cuzk::test
