// The cluster's job store against a real PostgreSQL server (label cluster):
// idempotent submits across nodes, claims in priority then age order that
// two nodes never share, a dead node's claims retaken and its late result
// refused, results readable from any node (proofs as bytes), a database of
// the older schema migrated, a database that goes away and comes back.
#include "cluster/cluster_store.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <set>
#include <thread>

#include "pg_server.hpp"
#include "run.hpp"
#include "seed.hpp"

namespace cuzk::server {
namespace {

using namespace std::chrono_literals;

const std::string key_a(32, 'a'), key_b(32, 'b');

cluster_job job(const std::string& owner, const std::string& id, const std::string& key = key_a, int priority = 1,
                const std::string& digest = "00ff") {
  cluster_job j;
  j.owner = owner;
  j.job_id = id;
  j.digest_hex = digest;
  j.key_id = key;
  j.spec = "{\"circuit\":\"chain:size=64\"}";
  j.priority = *priority_of(priority);
  return j;
}

class ClusterStore : public ::testing::Test {
 protected:
  void SetUp() override {
    pg.emplace();
    cluster_store(pg->conninfo()).migrate();
  }
  std::optional<test::pg_server> pg;
};

TEST_F(ClusterStore, ASubmitIsIdempotentPerOwnerAndJobIdOnEveryNodeAndAnotherRequestIsAConflict) {
  cluster_store node1(pg->conninfo()), node2(pg->conninfo());
  node1.migrate();  // a second node's start changes nothing
  const auto a = node1.submit(job("uid:1000", "j1"));
  EXPECT_TRUE(a.created);
  const auto again = node2.submit(job("uid:1000", "j1"));
  EXPECT_FALSE(again.created);
  EXPECT_FALSE(again.conflict);
  EXPECT_EQ(again.id, a.id);
  EXPECT_TRUE(node2.submit(job("uid:1000", "j1", key_a, 1, "beef")).conflict);
  EXPECT_TRUE(node2.submit(job("net:alice", "j1")).created) << "job ids are per owner";
}

TEST_F(ClusterStore, ClaimsFollowPriorityThenAgeAndOnlyKeysTheNodeHolds) {
  cluster_store s(pg->conninfo());
  s.submit(job("uid:1", "low", key_a, 2));
  s.submit(job("uid:1", "normal-1", key_a, 1));
  s.submit(job("uid:1", "other-key", key_b, 0));
  s.submit(job("uid:1", "high", key_a, 0));
  s.submit(job("uid:1", "normal-2", key_a, 1));
  s.heartbeat("n1", {key_a});
  const auto first = s.claim("n1", {key_a}, 2);
  ASSERT_EQ(first.size(), 2u);
  EXPECT_EQ(first[0].job_id, "high");
  EXPECT_EQ(first[1].job_id, "normal-1");
  EXPECT_EQ(first[0].state, cluster_state::claimed);
  EXPECT_EQ(first[0].node, "n1");
  const auto rest = s.claim("n1", {key_a}, 10);
  ASSERT_EQ(rest.size(), 2u);
  EXPECT_EQ(rest[0].job_id, "normal-2");
  EXPECT_EQ(rest[1].job_id, "low");
  EXPECT_TRUE(s.claim("n1", {key_a}, 10).empty()) << "the job of another key stays queued";
  EXPECT_EQ(s.claim("n2", {key_b}, 10).size(), 1u);
}

TEST_F(ClusterStore, ThreeNodesClaimingAtOnceNeverShareAJob) {
  {
    cluster_store s(pg->conninfo());
    for (int i = 0; i < 150; ++i) s.submit(job("uid:1", "j" + std::to_string(i), key_a, int(test::seed() + i) % 3));
  }
  std::vector<std::vector<std::int64_t>> got(3);
  std::vector<std::thread> nodes;
  for (int n = 0; n < 3; ++n)
    nodes.emplace_back([&, n] {
      cluster_store s(pg->conninfo());
      for (;;) {
        const auto c = s.claim("n" + std::to_string(n), {key_a}, 4);
        if (c.empty()) return;
        for (const auto& j : c) got[n].push_back(j.id);
      }
    });
  for (auto& t : nodes) t.join();
  std::set<std::int64_t> all;
  std::size_t total = 0;
  for (const auto& g : got) {
    total += g.size();
    all.insert(g.begin(), g.end());
  }
  EXPECT_EQ(total, 150u) << "every job claimed once";
  EXPECT_EQ(all.size(), 150u) << "no job claimed twice";
}

TEST_F(ClusterStore, ADeadNodesClaimsAreRetakenAndItsLateResultIsRefused) {
  cluster_store s(pg->conninfo());
  const auto id = s.submit(job("uid:1", "j")).id;
  s.heartbeat("dead", {key_a});
  ASSERT_EQ(s.claim("dead", {key_a}, 1).size(), 1u);
  EXPECT_EQ(s.release_dead(60s), 0u) << "a node heard from just now keeps its claims";
  std::this_thread::sleep_for(1100ms);
  s.heartbeat("alive", {key_a});
  EXPECT_EQ(s.release_dead(1s), 1u);
  const auto retaken = s.claim("alive", {key_a}, 1);
  ASSERT_EQ(retaken.size(), 1u);
  EXPECT_EQ(retaken[0].attempts, 2u);
  EXPECT_FALSE(s.complete(id, "dead", {{0xaa}})) << "the dead node's late proof";
  EXPECT_TRUE(s.complete(id, "alive", {{1, 2}, {3, 4}}));
  EXPECT_FALSE(s.complete(id, "alive", {{5}})) << "a job is proven once";
  cluster_store other(pg->conninfo());
  const auto done = other.find("uid:1", "j");
  ASSERT_TRUE(done);
  EXPECT_EQ(done->state, cluster_state::done);
  EXPECT_EQ(done->results, (std::vector<std::vector<std::uint8_t>>{{1, 2}, {3, 4}}));
  EXPECT_FALSE(other.find("uid:2", "j")) << "another owner's job is not found";
  const auto failed = s.submit(job("uid:1", "f")).id;
  ASSERT_EQ(s.claim("alive", {key_a}, 1).size(), 1u);
  EXPECT_TRUE(s.fail(failed, "alive", "the witness does not satisfy the circuit"));
  EXPECT_EQ(other.find("uid:1", "f")->error, "the witness does not satisfy the circuit");
}

// A database an older server created kept a done job's proofs as hex text (cuzk_jobs.results): migrate
// moves them into cuzk_proofs as bytes, and the job answers with the same proofs.
TEST(ClusterStoreSchema, AnOlderDatabasesHexProofsBecomeBytes) {
  test::pg_server pg;
  const auto psql = (test::pg_server::bindir().value() / "psql").string();
  const auto sql = [&](const std::string& q) {
    const auto r = test::run(psql + " -v ON_ERROR_STOP=1 '" + pg.conninfo() + "' -c \"" + q + "\"");
    ASSERT_EQ(r.rc, 0) << q << "\n" << r.out << r.err;
  };
  sql("CREATE TABLE cuzk_jobs (id bigserial PRIMARY KEY, owner text NOT NULL, job_id text NOT NULL, digest text NOT "
      "NULL, key_id text NOT NULL, spec text NOT NULL, client text NOT NULL DEFAULT '', priority smallint NOT NULL, "
      "curve smallint NOT NULL DEFAULT 1, partitions integer NOT NULL, submitted timestamptz NOT NULL DEFAULT now(), "
      "state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'claimed', 'done', 'failed')), node text, "
      "claimed timestamptz, attempts integer NOT NULL DEFAULT 0, error text, results text[], finished timestamptz, "
      "UNIQUE (owner, job_id))");
  sql("INSERT INTO cuzk_jobs (owner, job_id, digest, key_id, spec, priority, partitions, state, node, results, "
      "finished) VALUES ('uid:1', 'old', '00ff', '" +
      key_a + "', '', 1, 2, 'done', 'a', ARRAY['0102', 'ff'], now())");
  cluster_store s(pg.conninfo());
  s.migrate();
  s.migrate();  // once migrated, a second start changes nothing
  const auto j = s.find("uid:1", "old");
  ASSERT_TRUE(j);
  EXPECT_EQ(j->state, cluster_state::done);
  EXPECT_EQ(j->results, (std::vector<std::vector<std::uint8_t>>{{1, 2}, {0xff}}));
  // and the migrated database serves new jobs as a new one does
  const auto id = s.submit(job("uid:1", "new")).id;
  ASSERT_EQ(s.claim("a", {key_a}, 1).size(), 1u);
  EXPECT_TRUE(s.complete(id, "a", {{7}}));
  EXPECT_EQ(s.get(id)->results, (std::vector<std::vector<std::uint8_t>>{{7}}));
}

TEST_F(ClusterStore, ADatabaseThatGoesAwayIsAClearErrorAndIsReconnectedWhenItIsBack) {
  cluster_store s(pg->conninfo());
  s.submit(job("uid:1", "before"));
  pg->stop();
  try {
    s.submit(job("uid:1", "during"));
    ADD_FAILURE() << "a submit to a stopped database succeeded";
  } catch (const store_unavailable& e) {
    EXPECT_NE(std::string(e.what()).find("cluster database"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)s.find("uid:1", "before"), store_unavailable);
  pg->start();
  EXPECT_TRUE(s.find("uid:1", "before")) << "nothing recorded before is lost";
  EXPECT_TRUE(s.submit(job("uid:1", "after")).created);
  EXPECT_FALSE(s.find("uid:1", "during"));
}

}  // namespace
}  // namespace cuzk::server
