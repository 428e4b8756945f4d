// Running a cluster as an operator would (issue 37, label cluster): real
// cuzk-gpu-server processes on pools of their own and one real PostgreSQL.
// A node without a spool leaves streamed jobs to nodes with one instead of
// claiming and giving them back; a second node under a live node's name is
// refused at start; duration options refuse a fraction they would cut; a
// database that refuses the node's login is named (never its password) in the
// log, /readyz and cuzk status; cuzk status --cluster lists the nodes.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "client/lib/errors.hpp"
#include "cluster/cluster_store.hpp"
#include "harness.hpp"
#include "http_get.hpp"
#include "pg_server.hpp"
#include "run.hpp"
#include "seed.hpp"

namespace cuzk::test {
namespace {

using namespace std::chrono_literals;

const std::string circuit = "chain:size=64";
const std::string me = "uid:" + std::to_string(::getuid());

/* One node: its own pool (one slot) and endpoint, a server in the cluster (with a spool unless told), workers. */
struct node {
  node(const std::string& name, const pg_server& pg) : name(name), conninfo(pg.conninfo()) {
    svc = std::make_unique<service>(std::vector<std::string>{"1x4096"});
    key_id = load_srs(*svc, key_for(circuit).path);
  }
  void start(bool spool = true, std::vector<std::string> extra = {}) {
    std::vector<std::string> args{"--cluster-node", name,  "--cluster-heartbeat", "0.5", "--cluster-dead-after", "3",
                                  "--key",          key_id};
    if (conninfo_file.empty())
      args.insert(args.end(), {"--cluster-database", conninfo});
    else
      args.insert(args.end(), {"--cluster-database-file", conninfo_file.string()});
    if (spool) args.insert(args.end(), {"--spool-dir", (svc->dir() / "spool").string()});
    args.insert(args.end(), extra.begin(), extra.end());
    server = svc->start_server({}, args);
  }
  void add_worker() { workers.push_back(svc->start_worker(name + "-w" + std::to_string(workers.size()))); }
  client::connection connect() { return svc->connect(20s); }
  std::string logs() const { return "---- node " + name + "\n" + server_logs(*svc); }

  std::string name, conninfo, key_id;
  fs::path conninfo_file;  // instead of conninfo: a file holding it (a password may be there)
  std::unique_ptr<service> svc;
  std::unique_ptr<process> server;
  std::vector<std::unique_ptr<process>> workers;
};

std::optional<server::cluster_job> job_in(const pg_server& pg, const std::string& job_id) {
  return server::cluster_store(pg.conninfo()).find(me, job_id);
}

/* The node's heartbeat is in the database (it checked its name and may claim). */
bool beating(const pg_server& pg, const std::string& name) {
  try {
    for (const auto& [n, keys] : server::cluster_store(pg.conninfo()).nodes())
      if (n == name) return true;
  } catch (const std::exception&) {  // no node has made the tables yet
  }
  return false;
}

/* A command's exit status and everything it printed (stdout, then stderr). */
run_result said(const std::string& cmd) {
  auto r = run(cmd);
  r.out += r.err;
  return r;
}

void expect_proof(const client::job_outcome& r, const std::string& what) {
  ASSERT_TRUE(std::holds_alternative<proto::proof_reply>(r)) << what;
  const auto& part = std::get<proto::proof_reply>(r).partitions.at(0);
  EXPECT_TRUE(verifies(*key_for(circuit).pk, part.proof_json, part.public_json)) << what;
}

TEST(ClusterOperations, ANodeWithoutASpoolLeavesStreamedJobsToANodeWithOne) {
  pg_server pg;
  node a("a", pg), b("b", pg);
  // a (with a spool, no worker yet) takes j0 and keeps its one slot busy: what follows waits in the queue.
  a.start();
  auto ca = a.connect();
  const auto s = seed();
  ASSERT_TRUE(ca.submit(native_submit("j0", circuit, s, "ops")).created) << a.logs();
  ASSERT_TRUE(eventually(
      [&] {
        auto j = job_in(pg, "j0");
        return j && j->node == "a";
      },
      20s))
      << a.logs();
  // j1 streams its witness into a's spool; it travels in the database with the job.
  ca.upload("w1", proto::upload_kind::wtns, witness_file(a.svc->dir(), "j1.wtns", circuit, s + 1), a.key_id);
  proto::submit streamed = native_submit("j1", circuit, 0, "ops");
  streamed.zkey = a.key_id;
  streamed.work = proto::circom_work{"upload:w1", std::nullopt};
  ASSERT_TRUE(ca.submit(streamed).created) << a.logs();
  // b keeps no spool. j2, newer than j1, is b's to claim: j1 (first in line) is passed over, never claimed.
  b.start(false);
  ASSERT_TRUE(ca.submit(native_submit("j2", circuit, s + 2, "ops")).created);
  ASSERT_TRUE(eventually(
      [&] {
        auto j = job_in(pg, "j2");
        return j && j->node == "b";
      },
      30s))
      << "b never claimed j2: it is busy claiming and giving back j1\n"
      << a.logs() << b.logs();
  auto j1 = job_in(pg, "j1");
  ASSERT_TRUE(j1);
  EXPECT_EQ(j1->state, server::cluster_state::queued);
  EXPECT_EQ(j1->attempts, 0u) << "j1 was claimed " << j1->attempts << " times by a node that cannot take it\n"
                              << b.logs();
  EXPECT_EQ(server_logs(*b.svc).find("returned to the queue"), std::string::npos) << b.logs();
  // A node with a spool proves it: a, given a worker, proves j0 and then claims and proves j1.
  a.add_worker();
  expect_proof(ca.wait("j1", 120s), "the streamed job, on a\n" + a.logs() + b.logs());
  j1 = job_in(pg, "j1");
  ASSERT_TRUE(j1);
  EXPECT_EQ(j1->node, "a");
  EXPECT_EQ(j1->attempts, 1u);
}

TEST(ClusterOperations, ASecondNodeUnderALiveNodesNameIsRefusedAtStart) {
  pg_server pg;
  node a("same", pg), b("same", pg);  // two pools, as two servers on one host with the host name as their name
  a.start();
  ASSERT_TRUE(eventually([&] { return beating(pg, "same"); }, 20s)) << a.logs();
  b.start();
  const auto st = b.server->wait_exit(30s);
  ASSERT_TRUE(st) << "the second node under a live node's name keeps running\n" << b.logs();
  EXPECT_TRUE(WIFEXITED(*st) && WEXITSTATUS(*st) == 1) << *st;
  const auto why = server_logs(*b.svc);
  EXPECT_NE(why.find("cluster node name same is in use by a live node ("), std::string::npos) << why;
  EXPECT_NE(why.find("pool " + a.svc->pool()), std::string::npos) << "the sentence names the node holding it\n" << why;
  EXPECT_NE(why.find("--cluster-node"), std::string::npos) << why;
  // a was not disturbed: it still serves and proves.
  EXPECT_TRUE(a.server->running());
  a.add_worker();
  auto ca = a.connect();
  ASSERT_TRUE(ca.submit(native_submit("j0", circuit, seed(), "ops")).created);
  expect_proof(ca.wait("j0", 120s), "a still proves\n" + a.logs());
  // Once a is gone for the dead-node timeout (3 s), the name is free again.
  a.workers.clear();
  a.server->kill9();
  ASSERT_TRUE(eventually(
      [&] {
        for (const auto& n : server::cluster_store(pg.conninfo()).node_views())
          if (n.name == "same") return n.silent_s > 3.2;
        return false;
      },
      20s));
  b.start();
  EXPECT_TRUE(eventually([&] { return server_logs(*b.svc).find("claims are checked") != std::string::npos; }, 30s))
      << b.logs();
  EXPECT_TRUE(b.server->running()) << b.logs();
}

TEST(ClusterOperations, DurationOptionsRefuseAFractionTheyWouldCut) {
  // Each is refused with the option's name before anything starts (no pool is needed to say so).
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--cluster-dead-after 2.5", "2.5 is not a whole number of seconds"},
      {"--retention 0.5", "0.5 is not a whole number of seconds"},
      {"--upload-stall 1.5", "1.5 is not a whole number of seconds"},
      {"--hung-timeout 0.0005", "0.0005 is not a whole number of milliseconds"},
      {"--cluster-heartbeat 0.2005", "0.2005 is not a whole number of milliseconds"},
  };
  for (const auto& [option, sentence] : cases) {
    const auto r =
        said(server_bin() + " --pool none --endpoint ipc:///nonexistent/x " + option + " --cluster-database host=none");
    EXPECT_NE(r.rc, 0) << option;
    EXPECT_NE(r.out.find(option.substr(0, option.find(' '))), std::string::npos) << option << ": " << r.out;
    EXPECT_NE(r.out.find(sentence), std::string::npos) << option << ": " << r.out;
  }
  // The same from the configuration file.
  temp_dir d;
  std::ofstream(d.path / "cuzk.toml") << "[cluster]\ndead_after = 2.5\n";
  auto r = said(server_bin() + " --config " + (d.path / "cuzk.toml").string() +
                " --pool none --endpoint ipc:///nonexistent/x --cluster-database host=none");
  EXPECT_NE(r.rc, 0);
  EXPECT_NE(r.out.find("2.5 is not a whole number of seconds"), std::string::npos) << r.out;
  // Whole values pass the parse (and then fail on the missing pool, a different sentence).
  r = said(server_bin() +
           " --pool none --endpoint ipc:///nonexistent/x --cluster-dead-after 10 --cluster-heartbeat 0.25 "
           "--hung-timeout 0.001 --retention 60 --upload-stall 2 --cluster-database host=none");
  EXPECT_EQ(r.out.find("whole number"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("pool"), std::string::npos) << r.out;
  // A heartbeat above half the dead-node timeout is refused too.
  r = said(server_bin() +
           " --pool none --endpoint ipc:///nonexistent/x --cluster-dead-after 3 --cluster-heartbeat 2 "
           "--cluster-database host=none");
  EXPECT_NE(r.rc, 0);
  EXPECT_NE(r.out.find("--cluster-heartbeat 2 s must be at most half of --cluster-dead-after 3 s"), std::string::npos)
      << r.out;
}

TEST(ClusterOperations, ALoginTheDatabaseRefusesIsNamedInTheLogReadyzAndStatusWithoutThePassword) {
  pg_server pg;
  const auto psql = (*pg_server::bindir() / "psql").string();
  const auto r = run(psql + " -h 127.0.0.1 -p " + std::to_string(pg.port()) +
                     " -U postgres -d postgres -c \"CREATE ROLE locked NOLOGIN PASSWORD 'Sw0rdfish-77'\"");
  ASSERT_EQ(r.rc, 0) << r.out;
  node a("a", pg);
  a.conninfo_file = a.svc->dir() / "database";
  std::ofstream(a.conninfo_file) << "postgresql://locked:Sw0rdfish-77@127.0.0.1:" << pg.port() << "/postgres\n";
  fs::permissions(a.conninfo_file, fs::perms::owner_read | fs::perms::owner_write, fs::perm_options::replace);
  a.start(true, {"--metrics", "127.0.0.1:0"});
  const auto port = metrics_port(a.svc->dir());
  ASSERT_NE(port, 0) << a.logs();
  const std::string refusal = "role \"locked\" is not permitted to log in";
  // The log names it.
  ASSERT_TRUE(eventually([&] { return server_logs(*a.svc).find(refusal) != std::string::npos; }, 30s)) << a.logs();
  // /readyz: not ready, and why.
  http_result ready;
  ASSERT_TRUE(eventually(
      [&] {
        ready = http_request(port, "/readyz");
        return ready.status == 503;
      },
      20s))
      << ready.status << " " << ready.body;
  EXPECT_NE(ready.body.find(refusal), std::string::npos) << ready.body;
  // cuzk status names it; cuzk status --cluster shows it beside the node's name.
  auto c = a.connect();
  try {
    (void)c.status();
    ADD_FAILURE() << "a status was answered without the database";
  } catch (const client::server_error& e) {
    EXPECT_EQ(e.code(), proto::error_code::unavailable);
    EXPECT_NE(std::string(e.what()).find(refusal), std::string::npos) << e.what();
  }
  const auto plain = said(cli_bin() + " status --endpoint " + a.svc->endpoint());
  EXPECT_EQ(plain.rc, 3) << plain.out;
  EXPECT_NE(plain.out.find(refusal), std::string::npos) << plain.out;
  const auto cli = said(cli_bin() + " status --cluster --endpoint " + a.svc->endpoint());
  EXPECT_EQ(cli.rc, 3) << cli.out;
  EXPECT_NE(cli.out.find("database unavailable"), std::string::npos) << cli.out;
  EXPECT_NE(cli.out.find(refusal), std::string::npos) << cli.out;
  // The password appears nowhere; the server keeps serving.
  for (const auto& text : {server_logs(*a.svc), ready.body, plain.out, cli.out})
    EXPECT_EQ(text.find("Sw0rdfish"), std::string::npos) << text;
  EXPECT_TRUE(a.server->running());
  EXPECT_EQ(http_request(port, "/healthz").status, 200u);
}

TEST(ClusterOperations, WithoutPasswordRemovesTheConnectionStringsPassword) {
  using server::without_password;
  EXPECT_EQ(without_password("bad \"postgresql://u:pw1@h/db\"", "postgresql://u:pw1@h/db"),
            "bad \"postgresql://u:***@h/db\"");
  EXPECT_EQ(without_password("x password=pw2 y", "host=h password=pw2 user=u"), "x password=*** y");
  EXPECT_EQ(without_password("'a b' and a b", "host=h password = 'a b'"), "'***' and ***");
  EXPECT_EQ(without_password("q=pw3", "postgresql://u@h/db?password=pw3&sslmode=require"), "q=***");
  EXPECT_EQ(without_password("nothing here", "host=h user=u"), "nothing here");
}

TEST(ClusterOperations, StatusClusterListsTheNodesTheirHeartbeatsKeysAndClaims) {
  pg_server pg;
  node a("a", pg), b("b", pg);
  a.start();
  b.start();
  ASSERT_TRUE(eventually([&] { return beating(pg, "a") && beating(pg, "b"); }, 20s)) << a.logs() << b.logs();
  // a claims j0 (no worker: it stays claimed).
  auto ca = a.connect();
  ASSERT_TRUE(ca.submit(native_submit("j0", circuit, seed(), "ops")).created);
  ASSERT_TRUE(eventually(
      [&] {
        auto j = job_in(pg, "j0");
        return j && j->state == server::cluster_state::claimed;
      },
      20s))
      << a.logs();
  const auto claimer = job_in(pg, "j0")->node;
  auto view = [&] {
    const auto r = run(cli_bin() + " status --cluster --json --endpoint " + a.svc->endpoint());
    EXPECT_EQ(r.rc, 0) << r.out;
    return nlohmann::json::parse(r.out, nullptr, false);
  };
  auto v = view();
  ASSERT_FALSE(v.is_discarded());
  EXPECT_EQ(v["node"], "a");
  EXPECT_EQ(v["database_up"], true);
  EXPECT_EQ(v["dead_after_ms"], 3000);
  ASSERT_EQ(v["nodes"].size(), 2u) << v.dump();
  for (const auto& n : v["nodes"]) {
    EXPECT_EQ(n["alive"], true) << n.dump();
    EXPECT_LT(n["heartbeat_age_ms"].get<std::uint64_t>(), 3000u) << n.dump();
    EXPECT_EQ(n["keys"], 1) << n.dump();
    // This test runs as root, an operator: the key ids are shown.
    EXPECT_EQ(n["key_ids"], nlohmann::json::array({a.key_id})) << n.dump();
    EXPECT_EQ(n["claims"], n["name"] == claimer ? 1 : 0) << n.dump();
  }
  // The table for people.
  const auto table = said(cli_bin() + " status --cluster --endpoint " + a.svc->endpoint());
  EXPECT_NE(table.out.find("2 of 2 nodes alive"), std::string::npos) << table.out;
  // b dies: after the dead-node timeout a sees it silent.
  b.server->kill9();
  ASSERT_TRUE(eventually(
      [&] {
        const auto now = view();
        for (const auto& n : now["nodes"])
          if (n["name"] == "b") return n["alive"] == false;
        return false;
      },
      20s))
      << view().dump();
  EXPECT_NE(said(cli_bin() + " status --cluster --endpoint " + a.svc->endpoint()).out.find("1 of 2 nodes alive"),
            std::string::npos);
  // A node that is not in a cluster says so.
  service lone({"1x4096"});
  auto p = lone.start_server();
  (void)lone.connect().status();  // it serves
  const auto r = said(cli_bin() + " status --cluster --endpoint " + lone.endpoint());
  EXPECT_EQ(r.rc, 2) << r.out;
  EXPECT_NE(r.out.find("not in a cluster"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace cuzk::test
