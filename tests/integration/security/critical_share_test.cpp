// Critical jobs cannot starve another client (issue 37): one client that
// keeps critical jobs in flight gets a bucket of critical partitions per
// minute, and a job it preempts loses its synthesis or its proof at most
// `critical max_preemptions` times, so another client's normal job finishes
// while the critical stream goes on.
#include <gtest/gtest.h>

#include <atomic>

#include "harness.hpp"
#include "hostile.hpp"
#include "http_get.hpp"
#include "run.hpp"
#include "seed.hpp"

namespace cuzk::test {
namespace {

using namespace std::chrono_literals;

const std::string victim_circuit = "chain:size=20000";  // seconds of synthesis and proof on the CPU
const std::string critical_circuit = "chain:size=2000";

double metric(const service& svc, const std::string& series) {
  const auto text = "\n" + http_request(metrics_port(svc.dir()), "/metrics").body;
  const auto at = text.find("\n" + series + " ");
  return at == std::string::npos ? -1 : std::stod(text.substr(at + series.size() + 2));
}

TEST(CriticalShare, AClientKeepingCriticalJobsInFlightLetsAnotherClientsJobFinish) {
  REQUIRE_SECOND_UID();
  key_for(victim_circuit), key_for(critical_circuit);
  service svc({"2x32768"});
  auto server = svc.start_server({}, {"--client-group", "nogroup", "--metrics", "127.0.0.1:0"});
  auto worker = svc.start_worker("w1");
  auto c = svc.connect();
  ASSERT_TRUE(c.submit(native_submit("victim", victim_circuit, seed(), "victim")).created);
  ASSERT_TRUE(eventually(
      [&] {
        const auto st = c.status("victim");
        return !st.partitions.empty() && st.partitions[0].state == proto::partition_state::synthesizing;
      },
      60s));
  // The hostile client, as nobody: a new critical job every 100 ms for 60 s (at most 4 in flight by the
  // job limit), each one preempting the victim when it finds no worker or prover.
  auto crit = native_submit("", critical_circuit, 1, "hostile");
  crit.priority = proto::priority::critical;
  const pid_t hostile = fork_as_nobody([&] {
    raw_peer p(svc.endpoint());
    auto s = crit;
    const auto until = std::chrono::steady_clock::now() + 60s;
    for (std::uint64_t n = 1; std::chrono::steady_clock::now() < until; ++n) {
      s.job_id = "crit-" + std::to_string(n);
      p.send(s, n);
      while (p.receive(100ms)) {
      }
      if (::getppid() == 1) return 0;  // the test ended
    }
    return 0;
  });
  const auto start = std::chrono::steady_clock::now();
  const auto out = c.wait("victim", 30s);
  const auto took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const auto* pr = std::get_if<proto::proof_reply>(&out);
  EXPECT_NE(pr, nullptr) << "the normal job did not finish within 30 s while another client kept critical jobs in "
                            "flight\n"
                         << server_logs(svc);
  if (pr) {
    EXPECT_TRUE(
        verifies(*key_for(victim_circuit).pk, pr->partitions.at(0).proof_json, pr->partitions.at(0).public_json));
  }
  const auto preempted =
      metric(svc, "cuzk_preemptions_total{kind=\"proof\"}") + metric(svc, "cuzk_preemptions_total{kind=\"synthesis\"}");
  EXPECT_LE(preempted, 2) << "the one preemptible job was preempted more than critical max_preemptions (2) times";
  EXPECT_GT(metric(svc, "cuzk_critical_refused_total"), 0) << "the critical stream was never bounded";
  const auto logs = server_logs(svc);
  EXPECT_EQ(logs.find("preemption 3 of"), std::string::npos) << logs;
  ::kill(hostile, SIGKILL);
  (void)wait_child(hostile, 20s);
  std::printf("the normal job finished after %.1f s beside the critical stream, preempted %.0f time(s)\n", took,
              preempted);
  EXPECT_EQ(server->terminate(), 0);
}

}  // namespace
}  // namespace cuzk::test
