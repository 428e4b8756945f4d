// Critical work in a cluster (issue 37, label cluster): real cuzk-gpu-server
// processes on pools of their own and one real PostgreSQL. The node that
// accepts a critical Submit takes it from the client's bucket of critical
// partitions per minute, as a standalone server does; the partitions of a
// client's unfinished critical jobs are bounded across the cluster.
#include <gtest/gtest.h>
#include <unistd.h>

#include "client/lib/errors.hpp"
#include "harness.hpp"
#include "http_get.hpp"
#include "pg_server.hpp"
#include "seed.hpp"

namespace cuzk::test {
namespace {

using namespace std::chrono_literals;

const std::string circuit = "chain:size=64";

/* One node without workers: its critical jobs stay unfinished. */
struct node {
  node(const std::string& name, const pg_server& pg) {
    svc = std::make_unique<service>(std::vector<std::string>{"1x4096"});
    server = svc->start_server({}, {"--cluster-database", pg.conninfo(), "--cluster-node", name, "--cluster-heartbeat",
                                    "0.5", "--key", load_srs(*svc, key_for(circuit).path), "--metrics", "127.0.0.1:0",
                                    "--critical-partitions-per-minute", "2", "--critical-partitions-per-client", "3"});
  }
  double metric(const std::string& series) const {
    const auto text = "\n" + http_request(metrics_port(svc->dir()), "/metrics").body;
    const auto at = text.find("\n" + series + " ");
    return at == std::string::npos ? -1 : std::stod(text.substr(at + series.size() + 2));
  }
  std::unique_ptr<service> svc;
  std::unique_ptr<process> server;
};

proto::submit critical(const std::string& id, std::uint64_t s) {
  auto j = native_submit(id, circuit, s, "critical");
  j.priority = proto::priority::critical;
  return j;
}

/* The busy sentence a Submit was refused with, or "" when it was accepted. */
std::string refusal(client::connection& c, const proto::submit& s) {
  try {
    c.submit(s);
    return "";
  } catch (const client::server_error& e) {
    EXPECT_EQ(e.code(), proto::error_code::busy) << e.what();
    return e.what();
  }
}

TEST(ClusterCritical, TheAcceptingNodesBucketAndTheClustersPartitionBoundRefuseCriticalWork) {
  pg_server pg;
  node a("a", pg), b("b", pg);
  auto ca = a.svc->connect(20s), cb = b.svc->connect(20s);
  const auto s = seed();
  // a's bucket holds 2 partitions a minute: the third critical job waits for it.
  EXPECT_EQ(refusal(ca, critical("c1", s)), "");
  EXPECT_EQ(refusal(ca, critical("c2", s + 1)), "");
  const auto bucket = refusal(ca, critical("c3", s + 2));
  EXPECT_NE(bucket.find("at the limit of 2 partitions per minute"), std::string::npos) << "c3 accepted over a's bucket";
  EXPECT_EQ(a.metric("cuzk_critical_refused_total"), 1);
  EXPECT_FALSE(ca.submit(critical("c1", s)).created) << "a known job is answered, bucket or not";
  // b's bucket is its own; the partitions of the client's unfinished critical jobs (3) are the cluster's.
  EXPECT_EQ(refusal(cb, critical("c3", s + 2)), "");
  const auto bound = refusal(cb, critical("c4", s + 3));
  EXPECT_NE(
      bound.find("this job's 1 critical partition(s) and your 3 unfinished ones exceed the limit per client of 3"),
      std::string::npos)
      << "c4 accepted over the cluster's partition bound: " << bound;
  EXPECT_EQ(b.metric("cuzk_cluster_submits_refused_total{reason=\"critical\"}"), 1);
  EXPECT_EQ(refusal(cb, native_submit("h1", circuit, s + 4, "critical")), "") << "other classes are not bounded by it";
  EXPECT_EQ(a.server->terminate(), 0);
  EXPECT_EQ(b.server->terminate(), 0);
}

}  // namespace
}  // namespace cuzk::test
