// Crashes (SIGKILL) of workers and of the server: no job is lost and no
// synthesized slot is synthesized again.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>

#include <nlohmann/json.hpp>

#include "harness.hpp"
#include "http_get.hpp"
#include "seed.hpp"

namespace cuzk::test {
namespace {

using namespace std::chrono_literals;

proto::submit job(const std::string& id, const std::string& circuit, std::uint64_t seed) {
  proto::submit s;
  s.job_id = id;
  s.client = "crash_test";
  s.zkey = key_for(circuit).path;
  s.work = proto::native_work{circuit, inputs_for(circuit, seed)};
  return s;
}

proto::job_status wait_done(client::connection& c, const std::string& id, const std::string& circuit) {
  auto out = c.wait(id, 120s);
  if (const auto* pr = std::get_if<proto::proof_reply>(&out)) {
    for (const auto& p : pr->partitions) EXPECT_TRUE(verifies(*key_for(circuit).pk, p.proof_json, p.public_json));
  } else {
    ADD_FAILURE() << id << " did not finish: " << std::get<proto::job_status>(out).error;
  }
  return c.status(id);
}

/* Slots by state, from cuzk-shm status --json. */
std::map<std::string, int> slot_states(service& svc) {
  auto j = nlohmann::json::parse(svc.shm_status_json());
  std::map<std::string, int> n;
  for (const auto& s : j["slots"]) n[s["state"].get<std::string>()]++;
  return n;
}

TEST(ServiceCrash, AWorkerKilledMidSynthesisLosesNoJob) {
  const std::string circuit = "chain:size=1500";
  service svc({"2x4096"});
  auto server = svc.start_server();
  // Dies (SIGKILL, from its failpoint) after synthesizing into the slot, before FILLED.
  auto doomed = svc.start_worker("doomed", {{"CUZK_FAILPOINT", "worker.synthesized"}});
  auto c = svc.connect();
  c.submit(job("orphaned", circuit, test::seed()));
  auto st = doomed->wait_exit(60s);
  ASSERT_TRUE(st.has_value()) << "the worker did not reach its failpoint";
  ASSERT_TRUE(WIFSIGNALED(*st) && WTERMSIG(*st) == SIGKILL);
  auto rescuer = svc.start_worker("rescuer");
  auto s = wait_done(c, "orphaned", circuit);
  ASSERT_EQ(s.partitions.size(), 1u);
  EXPECT_EQ(s.partitions[0].syntheses, 2u);  // once by the dead worker, once by the rescuer
  EXPECT_EQ(s.partitions[0].attempts, 1u);
}

TEST(ServiceCrash, AServerKilledWithFilledAndProvingSlotsProvesThemAfterRestartWithoutResynthesis) {
  const std::string circuit = "chain:size=1500";
  service svc({"4x4096"});
  // Dies when its first proof is computed but not yet stored: that slot is
  // PROVING; the worker that filled it got the next slot before the proof
  // began and fills it meanwhile.
  auto server = svc.start_server({{"CUZK_FAILPOINT", "server.proved"}});
  std::vector<std::string> ids;
  {  // every job queued before any worker runs, so the crash cannot cut a submission
    auto c = svc.connect();
    for (int i = 0; i < 6; ++i) {
      ids.push_back("survivor-" + std::to_string(i));
      c.submit(job(ids.back(), circuit, test::seed() + i));
    }
  }
  std::vector<std::unique_ptr<process>> workers;
  for (int i = 0; i < 3; ++i) workers.push_back(svc.start_worker("worker@" + std::to_string(i + 1)));
  auto st = server->wait_exit(60s);
  ASSERT_TRUE(st.has_value()) << "the server did not reach its failpoint";
  ASSERT_TRUE(WIFSIGNALED(*st) && WTERMSIG(*st) == SIGKILL);
  // The workers finish what they were assigned while no server runs. (An
  // Assign still queued in the dead server's socket is lost: that slot stays
  // ASSIGNED until the next server sends it again.)
  ASSERT_TRUE(eventually(
      [&] {
        auto a = slot_states(svc);
        std::this_thread::sleep_for(1500ms);
        return a == slot_states(svc);
      },
      60s));
  auto before = slot_states(svc);
  EXPECT_EQ(before["proving"], 1) << "one slot was being proven when the server died";
  EXPECT_GE(before["filled"], 1) << "workers filled slots while the server was down";

  auto restarted = svc.start_server({}, {"--metrics", "127.0.0.1:0"});
  auto c = svc.connect();
  for (const auto& id : ids) {
    auto s = wait_done(c, id, circuit);
    ASSERT_EQ(s.partitions.size(), 1u);
    EXPECT_EQ(s.partitions[0].syntheses, 1u) << id << " was synthesized again";
  }
  const auto port = metrics_port(svc.dir());
  ASSERT_NE(port, 0);
  const auto m = http_request(port, "/metrics").body;
  EXPECT_NE(m.find("\ncuzk_recovered_slots_total " + std::to_string(before["proving"] + before["filled"]) + "\n"),
            std::string::npos)
      << m;
  EXPECT_EQ(restarted->terminate(), 0);
}

TEST(ServiceCrash, AHungWorkerHoldingASlotIsKilledAndItsJobCompletes) {
  const std::string circuit = "chain:size=1500";
  service svc({"2x4096"});
  auto server = svc.start_server({}, {"--hung-timeout", "2"});
  auto hung = svc.start_worker("hung");
  auto c = svc.connect();
  ASSERT_TRUE(eventually([&] { return c.status().workers.size() == 1; }, 20s));
  ::kill(hung->pid(), SIGSTOP);  // alive (its lease lock held) but silent
  c.submit(job("stuck", circuit, test::seed()));
  ASSERT_TRUE(eventually([&] { return slot_states(svc)["assigned"] == 1; }, 20s));
  auto st = hung->wait_exit(30s);
  ASSERT_TRUE(st.has_value()) << "the server did not kill the hung worker";
  EXPECT_TRUE(WIFSIGNALED(*st) && WTERMSIG(*st) == SIGKILL);
  auto rescuer = svc.start_worker("rescuer");
  auto s = wait_done(c, "stuck", circuit);
  ASSERT_EQ(s.partitions.size(), 1u);
  EXPECT_EQ(s.partitions[0].attempts, 1u);
}

}  // namespace
}  // namespace cuzk::test
