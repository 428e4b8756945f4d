// The critical class (issue 23 item 1): a critical job goes ahead of
// everything. It stops a running proof at its next phase boundary (the slot
// FILLED again and proven later from the same synthesis), aborts a synthesis
// that holds the only worker (the partition queued again, its start not
// counted as a crash), takes a reserved worker without aborting anything, and
// is limited per client.
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>

#include "client/lib/errors.hpp"
#include "harness.hpp"
#include "http_get.hpp"
#include "seed.hpp"

namespace cuzk::test {
namespace {

using namespace std::chrono_literals;

const std::string big = "chain:size=30000";  // domain 2^15: a CPU proof of seconds, in several phases
const std::string small = "chain:size=3000";

proto::submit job(const std::string& id, const std::string& circuit, proto::priority p) {
  auto s = native_submit(id, circuit, seed() + std::hash<std::string>{}(id), "critical-test");
  s.priority = p;
  return s;
}

proto::partition_state state_of(client::connection& c, const std::string& id) {
  const auto st = c.status(id);
  return st.partitions.empty() ? proto::partition_state::queued : st.partitions[0].state;
}

std::uint32_t syntheses(client::connection& c, const std::string& id) {
  return c.status(id).partitions.at(0).syntheses;
}

/* Waits for the job, checks its proof; its finishing time (ns, the server's clock). */
std::uint64_t proven(client::connection& c, const std::string& id, const std::string& circuit, const service& svc) {
  const auto out = c.wait(id, 180s);
  const auto* pr = std::get_if<proto::proof_reply>(&out);
  EXPECT_NE(pr, nullptr) << id << " did not finish\n" << server_logs(svc);
  if (!pr) return 0;
  EXPECT_TRUE(verifies(*key_for(circuit).pk, pr->partitions.at(0).proof_json, pr->partitions.at(0).public_json)) << id;
  return c.status(id).finished_ns;
}

/* The logs of one worker (NAME.N.log). */
std::string worker_log(const service& svc, const std::string& name) {
  std::string all;
  for (const auto& e : fs::directory_iterator(svc.dir()))
    if (e.path().filename().string().starts_with(name + ".")) all += read_all(e.path());
  return all;
}

double metric(const service& svc, const std::string& series) {
  const auto text = "\n" + http_request(metrics_port(svc.dir()), "/metrics").body;
  const auto at = text.find("\n" + series + " ");
  return at == std::string::npos ? -1 : std::stod(text.substr(at + series.size() + 2));
}

TEST(Critical, StopsARunningProofAtAPhaseBoundaryAndTheStoppedOneResumesWithoutANewSynthesis) {
  key_for(big), key_for(small);
  service svc({"3x32768"});
  auto server = svc.start_server({}, {"--hold-proving", "--metrics", "127.0.0.1:0"});
  auto worker = svc.start_worker("w1");
  auto c = svc.connect();
  ASSERT_TRUE(c.submit(job("n1", big, proto::priority::low)).created);
  ASSERT_TRUE(c.submit(job("n2", big, proto::priority::normal)).created);
  ASSERT_TRUE(eventually(
      [&] {
        return state_of(c, "n1") == proto::partition_state::synthesized &&
               state_of(c, "n2") == proto::partition_state::synthesized;
      },
      60s));
  ASSERT_EQ(::kill(server->pid(), SIGUSR2), 0);  // one prover (the CPU backend): n2 first, the higher priority
  ASSERT_TRUE(eventually([&] { return state_of(c, "n2") == proto::partition_state::proving; }, 30s));
  ASSERT_TRUE(c.submit(job("crit", small, proto::priority::critical)).created);
  const auto t_crit = proven(c, "crit", small, svc);
  const auto t_n2 = proven(c, "n2", big, svc);
  const auto t_n1 = proven(c, "n1", big, svc);
  EXPECT_LT(t_crit, t_n2) << "the critical job waited for the running proof";
  EXPECT_LT(t_crit, t_n1);
  EXPECT_EQ(syntheses(c, "n2"), 1u) << "the stopped proof's slot was synthesized again";
  EXPECT_EQ(syntheses(c, "n1"), 1u);
  const auto logs = server_logs(svc);
  EXPECT_NE(logs.find("proof preempted for a critical one"), std::string::npos) << logs;
  EXPECT_GE(metric(svc, "cuzk_preemptions_total{kind=\"proof\"}"), 1);
  EXPECT_EQ(metric(svc, "cuzk_proofs_failed_total"), 0);
  EXPECT_EQ(server->terminate(), 0);
}

TEST(Critical, AbortsTheSynthesisHoldingTheOnlyWorkerAndItsPartitionIsNotCountedAsACrash) {
  key_for(big), key_for(small);
  service svc({"2x32768"});
  auto server = svc.start_server({}, {"--metrics", "127.0.0.1:0", "--max-synth-crashes", "1"});
  // every 4096 items written sleeps: the big synthesis takes seconds
  auto worker = svc.start_worker("w1", {{"CUZK_FAILPOINT", "worker.synthesizing:1:slow150"}});
  auto c = svc.connect();
  ASSERT_TRUE(c.submit(job("bulk", big, proto::priority::low)).created);
  ASSERT_TRUE(eventually([&] { return state_of(c, "bulk") == proto::partition_state::synthesizing; }, 60s));
  std::this_thread::sleep_for(300ms);  // well into it
  ASSERT_TRUE(c.submit(job("crit", small, proto::priority::critical)).created);
  const auto t_crit = proven(c, "crit", small, svc);
  const auto t_bulk = proven(c, "bulk", big, svc);
  EXPECT_LT(t_crit, t_bulk);
  // --max-synth-crashes 1: had the aborted start counted as a crash, the requeued partition would have failed
  EXPECT_EQ(syntheses(c, "bulk"), 1u);
  EXPECT_GE(metric(svc, "cuzk_preemptions_total{kind=\"synthesis\"}"), 1);
  EXPECT_EQ(metric(svc, "cuzk_proofs_failed_total"), 0);
  EXPECT_NE(worker_log(svc, "w1").find("synthesis aborted"), std::string::npos) << worker_log(svc, "w1");
  EXPECT_EQ(server->terminate(), 0);
}

TEST(Critical, AReservedWorkerStaysIdleForCriticalJobsSoNothingIsAborted) {
  key_for(big), key_for(small);
  service svc({"4x32768"});
  auto server = svc.start_server({}, {"--metrics", "127.0.0.1:0", "--critical-reserve-workers", "1", "--hold-proving"});
  std::vector<std::unique_ptr<process>> workers;
  for (const char* n : {"w1", "w2"})
    workers.push_back(svc.start_worker(n, {{"CUZK_FAILPOINT", "worker.synthesizing:1:slow100"}}));
  auto c = svc.connect();
  for (int i = 0; i < 3; ++i)
    ASSERT_TRUE(c.submit(job("bulk" + std::to_string(i), big, proto::priority::normal)).created);
  ASSERT_TRUE(eventually([&] { return state_of(c, "bulk0") == proto::partition_state::synthesizing; }, 60s));
  int one_busy = 0;
  for (int i = 0; i < 20; ++i) {  // never both: one worker waits for critical work
    const auto st = c.status();
    ASSERT_EQ(st.workers.size(), 2u);
    const auto busy = std::count_if(st.workers.begin(), st.workers.end(),
                                    [](const auto& w) { return w.state == proto::worker_state::busy; });
    EXPECT_LE(busy, 1);
    one_busy += busy == 1;
    std::this_thread::sleep_for(100ms);
  }
  EXPECT_GT(one_busy, 0) << "no worker synthesized: the test saw nothing";
  ASSERT_EQ(::kill(server->pid(), SIGUSR2), 0);
  ASSERT_TRUE(c.submit(job("crit", small, proto::priority::critical)).created);
  const auto t_crit = proven(c, "crit", small, svc);
  for (int i = 0; i < 3; ++i) EXPECT_LT(t_crit, proven(c, "bulk" + std::to_string(i), big, svc));
  EXPECT_EQ(metric(svc, "cuzk_preemptions_total{kind=\"synthesis\"}"), 0);
  EXPECT_EQ(server->terminate(), 0);
}

TEST(Critical, IsLimitedPerClientAndCanBeTurnedOff) {
  key_for(small);
  service svc({"2x4096"});
  auto server = svc.start_server({}, {"--hold-proving", "--critical-per-client", "1"});
  auto c = svc.connect();
  ASSERT_TRUE(c.submit(job("c1", small, proto::priority::critical)).created);
  try {
    c.submit(job("c2", small, proto::priority::critical));
    ADD_FAILURE() << "a second critical job was accepted over the limit of 1";
  } catch (const client::server_error& e) {
    EXPECT_EQ(e.code(), proto::error_code::busy);
    EXPECT_NE(std::string(e.what()).find("unfinished critical jobs, the limit per client is 1"), std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(c.submit(job("c1", small, proto::priority::critical)).created);  // the same job again: no new entry
  EXPECT_TRUE(c.submit(job("h1", small, proto::priority::high)).created);       // other classes are not limited by it
  EXPECT_EQ(server->terminate(), 0);

  server = svc.start_server({}, {"--hold-proving", "--critical-per-client", "0"});
  auto again = svc.connect();
  try {
    again.submit(job("c3", small, proto::priority::critical));
    ADD_FAILURE() << "a critical job was accepted with critical turned off";
  } catch (const client::server_error& e) {
    EXPECT_NE(std::string(e.what()).find("takes no critical jobs"), std::string::npos) << e.what();
  }
  EXPECT_EQ(server->terminate(), 0);
}

}  // namespace
}  // namespace cuzk::test
