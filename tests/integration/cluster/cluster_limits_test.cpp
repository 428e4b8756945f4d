// A client's limits and records in the cluster database (issue 37, label
// cluster), against a real PostgreSQL server: one owner's submits through
// many nodes at once never pass its limits (the check and the insert are one
// serialized step); a finished job's files leave the database at once and
// an owner's files there count against its byte quota; one owner's
// critical partitions through two nodes never pass their bound; a node's proofs
// complete only the job it proved (its request and its owner).
#include <gtest/gtest.h>

#include <atomic>
#include <barrier>
#include <thread>

#include "cluster/cluster_store.hpp"
#include "pg_server.hpp"

namespace cuzk::server {
namespace {

cluster_job job(const std::string& owner, const std::string& id, int priority = 1, const std::string& digest = "00ff") {
  cluster_job j;
  j.owner = owner;
  j.job_id = id;
  j.digest_hex = digest;
  j.key_id = std::string(32, 'a');
  j.spec = "{}";
  j.priority = *priority_of(priority);
  return j;
}

class ClusterLimits : public ::testing::Test {
 protected:
  void SetUp() override {
    pg.emplace();
    cluster_store(pg->conninfo()).migrate();
  }
  std::optional<test::pg_server> pg;
};

/* Each node submits one job of `owner` at the same moment; how many were created. */
unsigned race(std::vector<std::unique_ptr<cluster_store>>& nodes, const std::string& owner, int priority,
              std::uint64_t most, std::uint64_t critical) {
  std::barrier start(static_cast<std::ptrdiff_t>(nodes.size()));
  std::atomic<unsigned> created{0};
  std::vector<std::thread> ts;
  for (std::size_t i = 0; i < nodes.size(); ++i)
    ts.emplace_back([&, i] {
      start.arrive_and_wait();
      created += nodes[i]->submit(job(owner, "j" + std::to_string(i), priority), {}, most, critical).created;
    });
  for (auto& t : ts) t.join();
  return created;
}

TEST_F(ClusterLimits, OneOwnersSubmitsThroughManyNodesAtOnceNeverPassItsLimits) {
  std::vector<std::unique_ptr<cluster_store>> nodes;
  for (int i = 0; i < 8; ++i) {
    nodes.push_back(std::make_unique<cluster_store>(pg->conninfo()));
    (void)nodes.back()->list("", 1);  // connected before the races
  }
  for (int round = 0; round < 12; ++round) {
    const auto owner = "uid:" + std::to_string(2000 + round);
    EXPECT_EQ(race(nodes, owner, 1, 2, UINT64_MAX), 2u) << "round " << round << ": unfinished jobs";
    EXPECT_EQ(race(nodes, owner + "c", 3, UINT64_MAX, 1), 1u) << "round " << round << ": critical jobs";
  }
}

TEST_F(ClusterLimits, OneOwnersCriticalSubmitsThroughTwoNodesNeverPassItsPartitionBound) {
  cluster_store a(pg->conninfo()), b(pg->conninfo());
  (void)a.list("", 1), (void)b.list("", 1);
  const std::uint64_t bound = 16;  // critical max_partitions_per_client
  for (int round = 0; round < 6; ++round) {
    const auto owner = "uid:" + std::to_string(3000 + round);
    // Jobs of 3 partitions from both nodes at once: 5 fit (15), a sixth would make 18.
    std::barrier start(2);
    std::atomic<unsigned> created{0}, refused{0};
    std::vector<std::thread> ts;
    for (auto* node : {&a, &b})
      ts.emplace_back([&, node] {
        start.arrive_and_wait();
        for (int i = 0; i < 6; ++i) {
          auto j = job(owner, (node == &a ? "a" : "b") + std::to_string(i), 3);
          j.partitions = 3;
          const auto out = node->submit(j, {}, UINT64_MAX, UINT64_MAX, UINT64_MAX, bound);
          created += out.created;
          refused += out.busy && out.critical && out.critical_partitions && *out.critical_partitions + 3 > bound;
        }
      });
    for (auto& t : ts) t.join();
    EXPECT_EQ(created, 5u) << "round " << round;
    EXPECT_EQ(refused, 7u) << "round " << round;
    const auto held = a.list(owner, 100);
    std::uint64_t parts = 0;
    for (const auto& j : held) parts += j.partitions;
    EXPECT_LE(parts, bound) << "round " << round;
  }
  // One job over the bound alone, and room made by a finished job.
  auto big = job("uid:3100", "big", 3);
  big.partitions = 17;
  EXPECT_TRUE(a.submit(big, {}, UINT64_MAX, UINT64_MAX, UINT64_MAX, bound).critical_partitions);
  auto one = job("uid:3100", "one", 3);
  one.partitions = 16;
  one.key_id = std::string(32, 'b');  // claimed alone, not the rounds' jobs
  const auto first = a.submit(one, {}, UINT64_MAX, UINT64_MAX, UINT64_MAX, bound);
  ASSERT_TRUE(first.created);
  one.job_id = "two", one.partitions = 1;
  EXPECT_FALSE(b.submit(one, {}, UINT64_MAX, UINT64_MAX, UINT64_MAX, bound).created);
  ASSERT_EQ(a.claim("n1", {std::string(32, 'b')}, 1).size(), 1u);
  ASSERT_TRUE(a.complete(first.id, "n1", {{0x00}}));
  EXPECT_TRUE(b.submit(one, {}, UINT64_MAX, UINT64_MAX, UINT64_MAX, bound).created) << "the finished job's room";
  auto high = job("uid:3100", "high", 2);
  high.partitions = 40;
  EXPECT_TRUE(b.submit(high, {}, UINT64_MAX, UINT64_MAX, UINT64_MAX, bound).created) << "only critical is bounded";
}

TEST_F(ClusterLimits, AFinishedJobsFilesLeaveTheDatabaseAndAnOwnersFilesCountAgainstItsQuota) {
  cluster_store node(pg->conninfo());
  const std::vector<cluster_input> mib{{"wtns", std::vector<std::uint8_t>(1 << 20, 7)}};
  const std::uint64_t quota = (5ULL << 20) / 2;  // two files of 1 MiB fit, a third does not
  const auto a = node.submit(job("uid:1000", "a"), mib, UINT64_MAX, UINT64_MAX, quota);
  const auto b = node.submit(job("uid:1000", "b"), mib, UINT64_MAX, UINT64_MAX, quota);
  ASSERT_TRUE(a.created && b.created);
  const auto c = node.submit(job("uid:1000", "c"), mib, UINT64_MAX, UINT64_MAX, quota);
  EXPECT_FALSE(c.created);
  EXPECT_TRUE(c.busy && c.stored_full);
  EXPECT_EQ(c.stored_bytes, 2u << 20);
  EXPECT_TRUE(node.submit(job("uid:1001", "c"), mib, UINT64_MAX, UINT64_MAX, quota).created) << "another owner's quota";
  // a is proven, b fails: their files go with their end, not a day later.
  ASSERT_EQ(node.claim("n1", {std::string(32, 'a')}, 2).size(), 2u);
  EXPECT_TRUE(node.complete(a.id, "n1", {{0x00}}));
  EXPECT_TRUE(node.fail(b.id, "n1", "bad witness"));
  EXPECT_TRUE(node.inputs(a.id).empty());
  EXPECT_TRUE(node.inputs(b.id).empty());
  EXPECT_TRUE(node.submit(job("uid:1000", "c"), mib, UINT64_MAX, UINT64_MAX, quota).created) << "the quota was freed";
}

TEST_F(ClusterLimits, ANodesProofsCompleteOnlyTheJobItProvedItsRequestAndItsOwner) {
  cluster_store node(pg->conninfo());
  const auto j = node.submit(job("uid:1000", "victim", 1, "aa11"));
  ASSERT_EQ(node.claim("n1", {std::string(32, 'a')}, 1).size(), 1u);
  EXPECT_FALSE(node.complete(j.id, "n1", {{0x00}}, "bb22", 1000u)) << "another request's proofs";
  EXPECT_FALSE(node.complete(j.id, "n1", {{0x00}}, "aa11", 65534u)) << "another owner's proofs";
  EXPECT_EQ(node.get(j.id)->state, server::cluster_state::claimed);
  EXPECT_TRUE(node.complete(j.id, "n1", {{0x00}}, "aa11", 1000u));
  EXPECT_EQ(node.get(j.id)->state, server::cluster_state::done);
}

}  // namespace
}  // namespace cuzk::server
