// Workers cannot hang a slot: a synthesis that stalls (failpoint
// worker.synthesizing armed to stall the synthesis thread while the process
// stays alive) stops the worker's heartbeats, passes its deadline, or is cut
// short by SIGTERM; each time the job is proven by another worker.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>

#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "harness.hpp"
#include "seed.hpp"

namespace cuzk::test {
namespace {

using namespace std::chrono_literals;

const std::string circuit = "chain:size=64";
const std::map<std::string, std::string> stall{{"CUZK_FAILPOINT", "worker.synthesizing:2:stall"}};

proto::submit job(const std::string& id) {
  proto::submit s;
  s.job_id = id;
  s.client = "worker_liveness_test";
  s.zkey = key_for(circuit).path;
  s.work = proto::native_work{circuit, inputs_for(circuit, test::seed())};
  return s;
}

std::map<std::string, int> slot_states(service& svc) {
  auto j = nlohmann::json::parse(svc.shm_status_json());
  std::map<std::string, int> n;
  for (const auto& s : j["slots"]) n[s["state"].get<std::string>()]++;
  return n;
}

/* One worker announced, so the job goes to it; then the job is submitted and
   its synthesis started (and stalled). */
void submit_to_the_only_worker(service& svc, client::connection& c, const std::string& id) {
  ASSERT_TRUE(eventually([&] { return c.status().workers.size() == 1; }, 20s));
  c.submit(job(id));
  ASSERT_TRUE(eventually([&] { return c.status(id).partitions.at(0).syntheses == 1; }, 20s));
  ASSERT_EQ(slot_states(svc)["assigned"], 1);
}

/* Another worker proves the job; the stalled attempt was requeued, not failed. */
void expect_proven_by_another_worker(service& svc, client::connection& c, const std::string& id) {
  auto rescuer = svc.start_worker("rescuer");
  auto out = c.wait(id, 60s);
  const auto* pr = std::get_if<proto::proof_reply>(&out);
  ASSERT_NE(pr, nullptr) << id << " did not finish: " << std::get<proto::job_status>(out).error;
  ASSERT_EQ(pr->partitions.size(), 1u);
  EXPECT_TRUE(verifies(*key_for(circuit).pk, pr->partitions[0].proof_json, pr->partitions[0].public_json));
  auto st = c.status(id);
  EXPECT_EQ(st.partitions.at(0).syntheses, 2u);
  EXPECT_EQ(st.partitions.at(0).attempts, 1u);
}

/* The log of the worker started under `name`. */
std::string log_of(service& svc, const std::string& name) {
  std::string text;
  for (const auto& e : fs::directory_iterator(svc.dir()))
    if (e.path().filename().string().rfind(name + ".", 0) == 0) {
      std::ifstream f(e.path());
      text += std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    }
  return text;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

TEST(WorkerLiveness, AStalledSynthesisStopsTheHeartbeatsAndTheServerKillsTheWorker) {
  service svc({"2x1024"});
  // 3 s: well above the old main-loop heartbeat period (1 s), so only a
  // worker that stops heartbeating altogether is killed.
  auto server = svc.start_server({}, {"--hung-timeout", "3"});
  auto w = svc.start_worker_with("stalled", {"--progress-grace", "0.5"}, stall);
  auto c = svc.connect();
  submit_to_the_only_worker(svc, c, "stalled");
  // The process is alive and its main loop turns; only its synthesis is stuck.
  auto st = w->wait_exit(30s);
  ASSERT_TRUE(st.has_value()) << "the worker kept heartbeating while its synthesis made no progress";
  EXPECT_TRUE(WIFSIGNALED(*st) && WTERMSIG(*st) == SIGKILL) << "killed by the server's hung-worker check";
  expect_proven_by_another_worker(svc, c, "stalled");
}

TEST(WorkerLiveness, ASynthesisPastItsDeadlineGivesTheSlotBackAndTheWorkerExits3) {
  service svc({"2x1024"});
  auto server = svc.start_server();  // --hung-timeout 60: only the deadline can end this synthesis
  auto w = svc.start_worker_with("late", {"--synth-deadline", "1"}, stall);
  auto c = svc.connect();
  submit_to_the_only_worker(svc, c, "late");
  const auto t0 = std::chrono::steady_clock::now();
  auto st = w->wait_exit(30s);
  ASSERT_TRUE(st.has_value()) << "the worker did not give up its stalled synthesis";
  EXPECT_TRUE(WIFEXITED(*st) && WEXITSTATUS(*st) == 3) << "status " << *st;
  EXPECT_LT(seconds_since(t0), 10.0);
  EXPECT_NE(log_of(svc, "late").find("slot given back (1 slot(s) freed, 1 partition(s) requeued)"), std::string::npos)
      << log_of(svc, "late");
  // Given back by the worker itself: nothing left ASSIGNED, the partition queued again, the job not failed.
  EXPECT_EQ(slot_states(svc)["assigned"], 0);
  auto s = c.status("late");
  EXPECT_EQ(s.state, proto::job_state::queued);
  EXPECT_EQ(s.partitions.at(0).state, proto::partition_state::queued);
  EXPECT_EQ(s.partitions.at(0).attempts, 1u);
  expect_proven_by_another_worker(svc, c, "late");
}

TEST(WorkerLiveness, SigtermDuringAStalledSynthesisEndsTheWorkerWithinTheStopTimeout) {
  service svc({"2x1024"});
  auto server = svc.start_server();
  auto w = svc.start_worker_with("stopping", {"--stop-timeout", "1"}, stall);
  auto c = svc.connect();
  submit_to_the_only_worker(svc, c, "stopping");
  const auto t0 = std::chrono::steady_clock::now();
  ::kill(w->pid(), SIGTERM);
  auto st = w->wait_exit(30s);
  ASSERT_TRUE(st.has_value()) << "the worker did not exit after SIGTERM";
  const double took = seconds_since(t0);
  EXPECT_TRUE(WIFEXITED(*st) && WEXITSTATUS(*st) == 0) << "status " << *st;
  EXPECT_GE(took, 0.9) << "it waited for the synthesis in hand";
  EXPECT_LT(took, 1.0 + 5) << "--stop-timeout 1 plus a margin for a busy machine (the default is 10 s)";
  EXPECT_NE(log_of(svc, "stopping").find("slot given back (1 slot(s) freed, 1 partition(s) requeued)"),
            std::string::npos)
      << log_of(svc, "stopping");
  EXPECT_EQ(slot_states(svc)["assigned"], 0);
  expect_proven_by_another_worker(svc, c, "stopping");
}

TEST(WorkerLiveness, ASecondSignalEndsTheWorkerAtOnce) {
  service svc({"2x1024"});
  auto server = svc.start_server();
  auto w = svc.start_worker_with("interrupted", {"--stop-timeout", "600"}, stall);
  auto c = svc.connect();
  submit_to_the_only_worker(svc, c, "interrupted");
  ::kill(w->pid(), SIGTERM);
  std::this_thread::sleep_for(200ms);
  ASSERT_TRUE(w->running()) << "the first signal waits for the synthesis";
  const auto t0 = std::chrono::steady_clock::now();
  ::kill(w->pid(), SIGINT);
  auto st = w->wait_exit(30s);
  ASSERT_TRUE(st.has_value()) << "the worker did not exit after a second signal";
  EXPECT_LT(seconds_since(t0), 5.0) << "the second signal did not end it at once (--stop-timeout 600)";
  EXPECT_TRUE(WIFEXITED(*st) && WEXITSTATUS(*st) == 0) << "status " << *st;
  EXPECT_EQ(slot_states(svc)["assigned"], 0);
  expect_proven_by_another_worker(svc, c, "interrupted");
}

}  // namespace
}  // namespace cuzk::test
