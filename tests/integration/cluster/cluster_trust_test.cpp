// What one cluster node may do for a client of another (issue 37, label
// cluster): real servers, workers and PostgreSQL; a second uid (nobody,
// setpriv) as the hostile client; node B in a mount namespace of its own,
// where a directory that on node A holds the client's witness holds another
// user's. A witness the client names by path is read on the node it asked,
// under its identity, and only its bytes travel: B never opens the path. A
// job id in the cluster's reserved namespace is refused, and a pool that
// joins a cluster adopts no job it did not claim, whatever its name.
#include <gtest/gtest.h>
#include <pwd.h>
#include <sys/stat.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "client/lib/errors.hpp"
#include "cluster/cluster_store.hpp"
#include "harness.hpp"
#include "http_get.hpp"
#include "hostile.hpp"
#include "job/result.hpp"
#include "job/spec.hpp"
#include "pg_server.hpp"
#include "run.hpp"
#include "proto/codec.hpp"
#include "seed.hpp"
#include "shm/job_table.hpp"
#include "shm/region.hpp"
#include "util/hex.hpp"

namespace cuzk::test {
namespace {

using namespace std::chrono_literals;

const std::string circuit = "chain:size=64";

struct node {
  node(const std::string& name, const pg_server& pg) : name(name), conninfo(pg.conninfo()) {
    svc = std::make_unique<service>(std::vector<std::string>{"1x4096"});
    key_id = load_srs(*svc, key_for(circuit).path);
  }
  std::vector<std::string> cluster_args() const {
    return {"--cluster-database",
            conninfo,
            "--cluster-node",
            name,
            "--cluster-heartbeat",
            "0.5",
            "--key",
            key_id,
            "--spool-dir",
            (svc->dir() / "spool").string(),
            "--client-group",
            "nogroup"};
  }
  void start(std::vector<std::string> extra = {}) {
    auto args = cluster_args();
    args.insert(args.end(), extra.begin(), extra.end());
    server = svc->start_server({}, args);
  }
  std::string name, conninfo, key_id;
  std::unique_ptr<service> svc;
  std::unique_ptr<process> server;
  std::vector<std::unique_ptr<process>> workers;
};

std::string logs(const std::vector<node*>& nodes) {
  std::string out;
  for (auto* n : nodes) out += "---- node " + n->name + "\n" + server_logs(*n->svc);
  return out;
}

std::optional<server::cluster_job> find(const pg_server& pg, const std::string& owner, const std::string& job_id) {
  return server::cluster_store(pg.conninfo()).find(owner, job_id);
}

/* The public signals of a finished job's first proof, as JSON. */
nlohmann::json public_of(const server::cluster_job& j) {
  return nlohmann::json::parse(job::result_to_json(j.results.at(0)).public_signals);
}

/* `cuzk prove` on this host, the reference: the public signals of these proving arguments. */
nlohmann::json proven_here(const fs::path& dir, std::vector<std::string> args) {
  args.insert(args.begin(), {"prove", "--zkey", key_for(circuit).path, "--threads", "1"});
  args.insert(args.end(),
              {"--proof", (dir / "ref.proof.json").string(), "--public", (dir / "ref.public.json").string()});
  const auto r = cli_as("", args);
  EXPECT_EQ(r.exit, 0) << r.output;
  return nlohmann::json::parse(read_all(dir / "ref.public.json"));
}

void write_text(const fs::path& p, const std::string& s, mode_t mode) {
  std::ofstream(p) << s;
  ::chmod(p.c_str(), mode);
}

const std::string nobody_owner() { return "uid:" + std::to_string(::getpwnam("nobody")->pw_uid); }

TEST(ClusterTrust, AWitnessPathIsReadWhereTheClientAskedUnderItsIdentityAndNeverOpenedOnAnotherNode) {
  REQUIRE_SECOND_UID();
  pg_server pg;
  node a("a", pg), b("b", pg);
  // w: a witness directory of both nodes. On A (and this host) it holds the client's own witness; in B's mount
  // namespace v is mounted over it: there mine.wtns is another user's witness, unreadable to the client, and
  // only-b.wtns exists.
  const auto w = a.svc->dir() / "w", v = a.svc->dir() / "v";
  fs::create_directories(w);
  fs::create_directories(v);
  ::chmod(a.svc->dir().c_str(), 0755);
  ::chmod(w.c_str(), 0755);
  ::chmod(v.c_str(), 0700);
  ::chmod(witness_file(w, "mine.wtns", circuit, seed() + 1).c_str(), 0644);
  ::chmod(witness_file(v, "mine.wtns", circuit, seed() + 2).c_str(), 0600);
  ::chmod(witness_file(v, "only-b.wtns", circuit, seed() + 3).c_str(), 0600);
  // A's one slot holds j0 (no worker): every other job is B's to prove.
  a.start();
  auto ca = a.svc->connect(20s);
  auto j0 = native_submit("j0", circuit, seed(), "trust");
  j0.zkey = a.key_id;
  ASSERT_TRUE(ca.submit(j0).created) << logs({&a});
  ASSERT_TRUE(eventually(
      [&] {
        auto j = find(pg, "uid:" + std::to_string(::getuid()), "j0");
        return j && j->node == "a";
      },
      20s))
      << logs({&a});
  b.svc->server_wrapper = {"/usr/bin/unshare",
                           "--mount",
                           "--propagation",
                           "private",
                           "sh",
                           "-c",
                           "mount --bind " + v.string() + " " + w.string() + " && exec \"$0\" \"$@\""};
  b.start();
  (void)b.svc->connect(20s).status();  // serving: its namespace is mounted
  const std::string ns = "--mount=/proc/" + std::to_string(b.server->pid()) + "/ns/mnt";
  b.workers.push_back(
      std::make_unique<process>("/usr/bin/nsenter",
                                std::vector<std::string>{ns, "--", worker_bin(), "--pool", b.svc->pool(), "--endpoint",
                                                         b.svc->worker_endpoint(), "--name", "b-w0", "--checksum"},
                                b.svc->dir() / "b-w0.log"));

  auto submit = [&](const std::string& id, const fs::path& wtns) {
    return cli(
        true, {"submit", "--endpoint", a.svc->endpoint(), "--zkey", a.key_id, "--wtns", wtns.string(), "--job-id", id});
  };
  const auto r = submit("mine", w / "mine.wtns");
  ASSERT_EQ(r.exit, 0) << r.output << logs({&a, &b});
  std::optional<server::cluster_job> mine;
  ASSERT_TRUE(eventually(
      [&] {
        mine = find(pg, nobody_owner(), "mine");
        return mine && mine->state == server::cluster_state::done;
      },
      120s))
      << (mine ? std::string(server::name(mine->state)) + " " + mine->error : "unknown") << "\n"
      << logs({&a, &b});
  EXPECT_EQ(mine->node, "b");
  EXPECT_EQ(public_of(*mine), proven_here(a.svc->dir(), {"--wtns", (w / "mine.wtns").string()}))
      << "node B proved the file its own namespace holds under that path, not the client's";
  // A path that exists only on B is refused on A as one that exists nowhere: B's files are never consulted.
  const auto only_b = submit("only-b", w / "only-b.wtns"), nowhere = submit("nowhere", w / "nowhere.wtns");
  EXPECT_EQ(only_b.exit, 2) << only_b.output;
  std::string said = only_b.output;
  for (auto p = said.find("only-b"); p != std::string::npos; p = said.find("only-b")) said.replace(p, 6, "nowhere");
  EXPECT_EQ(said, nowhere.output);
  EXPECT_FALSE(find(pg, nobody_owner(), "only-b"));
}

TEST(ClusterTrust, AJobIdInTheClustersNamespaceIsRefusedAndAPoolThatJoinsAClusterAdoptsNoJobItDidNotClaim) {
  REQUIRE_SECOND_UID();
  pg_server pg;
  server::cluster_store db(pg.conninfo());
  db.migrate();
  node a("a", pg);
  // Another client's job waits in the cluster as job 1, to be claimed as "cluster:1:N".
  auto victim = native_submit("victim", circuit, seed() + 10, "victim");
  victim.zkey = a.key_id;
  server::cluster_job v;
  v.owner = "uid:" + std::to_string(::getuid());
  v.job_id = "victim";
  v.digest_hex = std::string(32, 'e');
  v.key_id = a.key_id;
  v.spec = util::to_hex(proto::encode(proto::message{0, victim}));
  const auto id = db.submit(v).id;
  const auto planted = "cluster:" + std::to_string(id) + ":1";
  // The attacker, a client of A while A stands alone, names its job so.
  auto standalone = a.svc->start_server({}, {"--client-group", "nogroup", "--key", a.key_id});
  (void)a.svc->connect(20s).status();
  const auto attacker_inputs = a.svc->dir() / "attacker.json";
  write_text(attacker_inputs, inputs_for(circuit, seed() + 20), 0644);
  ::chmod(a.svc->dir().c_str(), 0755);
  const auto r = cli(true, {"submit", "--endpoint", a.svc->endpoint(), "--zkey", a.key_id, "--circuit", circuit,
                            "--inputs", attacker_inputs.string(), "--job-id", planted});
  EXPECT_EQ(r.exit, 2) << r.output;
  EXPECT_NE(r.output.find("reserved"), std::string::npos) << r.output;
  if (r.exit != 0) {
    // As an older server would have accepted it: the record in A's pool, the attacker's.
    auto region = shm::region::open({a.svc->pool(), ""}).value();
    shm::job_table jobs(region);
    job::spec sp;
    sp.zkey = a.key_id;
    sp.circuit = circuit;
    sp.inputs = inputs_for(circuit, seed() + 20);
    const auto spec = sp.to_json();
    shm::job_request req{planted, "attacker", a.key_id, spec, shm::priority::normal, 1};
    req.owner_uid = ::getpwnam("nobody")->pw_uid;
    ASSERT_TRUE(static_cast<bool>(jobs.submit(req)));
  }
  EXPECT_EQ(standalone->terminate(), 0);
  // A joins the cluster with the planted record in its pool, and a worker.
  a.start();
  a.workers.push_back(a.svc->start_worker("a-w0"));
  std::optional<server::cluster_job> j;
  ASSERT_TRUE(eventually(
      [&] {
        j = db.get(id);
        return j && (j->state == server::cluster_state::done || j->state == server::cluster_state::failed);
      },
      120s))
      << logs({&a});
  ASSERT_EQ(j->state, server::cluster_state::done) << j->error << "\n" << logs({&a});
  const auto inputs = a.svc->dir() / "victim.json";
  write_text(inputs, std::get<proto::native_work>(victim.work).inputs_json, 0644);
  EXPECT_EQ(public_of(*j), proven_here(a.svc->dir(), {"--circuit", circuit, "--inputs", inputs.string()}))
      << "the victim's job holds the attacker's proof\n"
      << logs({&a});
  EXPECT_EQ(server_logs(*a.svc).find("its claim was no longer this node's"), std::string::npos)
      << "A adopted the planted record and reported its proof for the victim's claim\n"
      << logs({&a});
}

TEST(ClusterTrust, AProofRewrittenInTheDatabaseIsNeverAnswered) {
  pg_server pg;
  node a("a", pg);
  a.start({"--metrics", "127.0.0.1:0"});
  a.workers.push_back(a.svc->start_worker("a-w0"));
  auto c = a.svc->connect(20s);
  auto s = native_submit("j1", circuit, seed(), "trust");
  s.zkey = a.key_id;
  ASSERT_TRUE(c.submit(s).created) << logs({&a});
  ASSERT_TRUE(std::holds_alternative<proto::proof_reply>(c.wait("j1", 120s))) << logs({&a});
  // Whoever holds the role changes a public signal of the stored result (still a canonical field element).
  auto stored = find(pg, "uid:" + std::to_string(::getuid()), "j1").value().results.at(0);
  const std::size_t first_signal = 1 + 96 + 192 + 96 + 4;  // curve, BLS12-381 proof, n_public
  ASSERT_GT(stored.size(), first_signal);
  stored[first_signal] ^= 1;
  const auto psql = (pg_server::bindir().value() / "psql").string();
  const auto r =
      run(psql + " '" + pg.conninfo() + "' -c \"UPDATE cuzk_proofs SET proof = decode('" + util::to_hex(stored) +
          "', 'hex') WHERE part = 0 AND job = (SELECT id FROM cuzk_jobs WHERE job_id = 'j1')\"");
  ASSERT_EQ(r.rc, 0) << r.out << r.err;
  for (const char* how : {"fetch", "wait"}) {
    try {
      const auto out = std::string(how) == "fetch" ? c.fetch("j1") : c.wait("j1", 5s);
      ADD_FAILURE() << how << ": the rewritten proof was answered";
    } catch (const client::server_error& e) {
      EXPECT_NE(std::string(e.what()).find("does not verify"), std::string::npos) << how << ": " << e.what();
    }
  }
  const auto port = metrics_port(a.svc->dir());
  ASSERT_NE(port, 0);
  EXPECT_NE(http_request(port, "/metrics").body.find("\ncuzk_cluster_proofs_refused_total 2\n"), std::string::npos)
      << http_request(port, "/metrics").body;
}

}  // namespace
}  // namespace cuzk::test
