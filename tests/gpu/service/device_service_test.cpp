// The service with a device backend (issue 11), real processes on a real pool:
// built twice, as cuzk-gpu-service-test (label gpu: --backend cuda, skipped
// without a device) and as service_device_fault_test (label service: --backend
// cpu, the same fault injection, so the server's recovery is tested in CI).
//   CUZK_CUDA_FAULT=transient:N[:COUNT] | sticky:N  (gpu-server/backend/fault.hpp)
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <functional>
#include <set>
#include <thread>
#include <iterator>
#include <nlohmann/json.hpp>

#include "harness.hpp"
#include "seed.hpp"
#ifdef CUZK_TEST_CUDA
#include "gpu_test.hpp"
#define REQUIRE_DEVICE() CUZK_REQUIRE_GPU()
constexpr const char* backend = "cuda";
#else
#define REQUIRE_DEVICE() \
  do {                   \
  } while (0)
constexpr const char* backend = "cpu";
#endif

namespace cuzk::test {
namespace {

using namespace std::chrono_literals;

constexpr int exit_device_lost = 75;  // gpu-server/backend/fault.hpp

proto::submit job(const std::string& id, const std::string& circuit, std::uint64_t seed, bool fixed_blinding = false) {
  auto s = native_submit(id, circuit, seed, "device_service_test");
  if (fixed_blinding) s.blinding = proto::blinding{"12345", "67890"};
  return s;
}

/* The proofs (JSON text, one per partition), each verified under the key. */
std::vector<std::string> proven(client::connection& c, const std::string& id, const std::string& circuit) {
  auto out = c.wait(id, 180s);
  const auto* pr = std::get_if<proto::proof_reply>(&out);
  if (!pr) {
    ADD_FAILURE() << id << " did not finish: "
                  << (std::holds_alternative<proto::job_status>(out) ? std::get<proto::job_status>(out).error : "");
    return {};
  }
  std::vector<std::string> proofs;
  for (const auto& p : pr->partitions) {
    EXPECT_TRUE(verifies(*key_for(circuit).pk, p.proof_json, p.public_json)) << id;
    proofs.push_back(p.proof_json);
  }
  return proofs;
}

std::uint32_t syntheses(client::connection& c, const std::string& id) {
  std::uint32_t n = 0;
  for (const auto& p : c.status(id).partitions) n += p.syntheses;
  return n;
}

std::map<std::string, int> slot_states(service& svc) {
  auto j = nlohmann::json::parse(svc.shm_status_json());
  std::map<std::string, int> n;
  for (const auto& s : j["slots"]) n[s["state"].get<std::string>()]++;
  return n;
}

#ifdef CUZK_TEST_CUDA
/* The service with one backend: n jobs PREFIX0.. (fixed blinding) of
   circuit_of(i) on `workers` workers; their proofs in order, each verified;
   check_logs sees the servers' logs (every run checks the backend that proved). */
std::vector<std::string> fixed_blinding_proofs(const std::vector<std::string>& slots, const std::string& be,
                                               const std::vector<std::string>& extra, int workers,
                                               const std::string& prefix, std::size_t n,
                                               const std::function<std::string(std::size_t)>& circuit_of,
                                               std::uint64_t seed,
                                               const std::function<void(const std::string&)>& check_logs = {}) {
  service svc(slots);
  svc.backend = be;
  auto server = svc.start_server({}, extra);
  std::vector<std::unique_ptr<process>> ws;
  for (int i = 0; i < workers; ++i) ws.push_back(svc.start_worker("worker@" + std::to_string(i + 1)));
  auto c = svc.connect();
  for (std::size_t i = 0; i < n; ++i) c.submit(job(prefix + std::to_string(i), circuit_of(i), seed + i, true));
  std::vector<std::string> proofs;
  for (std::size_t i = 0; i < n; ++i)
    for (auto& p : proven(c, prefix + std::to_string(i), circuit_of(i))) proofs.push_back(p);
  EXPECT_EQ(server->terminate(), 0);
  const auto logs = server_logs(svc);
  EXPECT_NE(logs.find("backend=" + be), std::string::npos) << "the proofs were not made by the " << be << " backend";
  if (be == "cuda" && extra.empty()) {
    EXPECT_NE(logs.find("registered the pool's payload with CUDA"), std::string::npos);
  }
  if (check_logs) check_logs(logs);
  return proofs;
}

/* Mixed native circuits, both H conventions' keys (the dev setup's default),
   fixed blinding: every proof verifies and is byte-identical to the CPU
   backend's; the same again with --no-register and with one worker of two lanes. */
TEST(DeviceService, MixedCircuitsOnTheGpuVerifyAndMatchTheCpuBackendByteForByte) {
  REQUIRE_DEVICE();
  const std::vector<std::string> circuits = {"chain:size=1500", "poseidon-merkle:depth=2", "sha256:bytes=3",
                                             "chain:size=20000"};
  for (const auto& c : circuits) key_for(c);
  const auto seed = test::seed();
  auto run = [&](const std::string& be, const std::vector<std::string>& extra) {
    return fixed_blinding_proofs(
        {"4x4096", "2x32768"}, be, extra, 2, "mixed-", 8, [&](std::size_t i) { return circuits[i % circuits.size()]; },
        seed);
  };
  const auto cpu = run("cpu", {});
  const auto gpu = run("cuda", {});
  const auto unregistered = run("cuda", {"--no-register"});
  /* one worker: its two lanes, the next proof's inputs copied while the current one's MSMs run */
  const auto lanes = fixed_blinding_proofs(
      {"4x4096", "2x32768"}, "cuda", {"--workers-per-gpu", "1"}, 2, "mixed-", 8,
      [&](std::size_t i) { return circuits[i % circuits.size()]; }, seed,
      [](const std::string& logs) {
        EXPECT_NE(logs.find("1 workers (2 lanes each"), std::string::npos) << "one worker without its two lanes";
      });
  ASSERT_EQ(cpu.size(), 8u);
  EXPECT_EQ(gpu, cpu) << "the CUDA backend's proofs differ from the CPU backend's (fixed blinding)";
  EXPECT_EQ(unregistered, cpu) << "--no-register changed the proofs";
  EXPECT_EQ(lanes, cpu) << "one worker's two lanes changed the proofs";
}

/* The partitions' GPU indices in a status --json of the service. */
std::set<int> gpus_that_proved(service& svc, const std::vector<std::string>& ids) {
  std::set<int> g;
  for (const auto& id : ids) {
    auto j = nlohmann::json::parse(svc.cli_status_json(id));
    const auto& jobs = j.contains("jobs") ? j["jobs"] : nlohmann::json::array({j});
    for (const auto& job : jobs)
      for (const auto& p : job["partitions"])
        if (p.contains("gpu")) g.insert(p["gpu"].get<int>());
  }
  return g;
}

/* --gpus 0,0: two logical GPUs (each its own workers and resident keys) on
   one device share one queue; both prove, every proof verifies, and status
   reports both with a busy ratio. */
TEST(DeviceService, TwoLogicalGpusOnOneDeviceShareTheQueueAndBothProve) {
  REQUIRE_DEVICE();
  const std::string circuit = "chain:size=20000";
  service svc({"6x32768"});
  svc.backend = "cuda";
  auto server = svc.start_server({}, {"--gpus", "0,0"});
  std::vector<std::unique_ptr<process>> workers;
  for (int i = 0; i < 4; ++i) workers.push_back(svc.start_worker("worker@" + std::to_string(i + 1)));
  auto c = svc.connect();
  const auto seed = test::seed();
  std::vector<std::string> ids;
  for (int i = 0; i < 24; ++i) {
    ids.push_back("two-" + std::to_string(i));
    c.submit(job(ids.back(), circuit, seed + i));
  }
  for (const auto& id : ids) EXPECT_EQ(proven(c, id, circuit).size(), 1u);
  const auto used = gpus_that_proved(svc, ids);
  EXPECT_TRUE(used.count(0) && used.count(1)) << "only one of the two logical GPUs proved";
  auto st = nlohmann::json::parse(svc.cli_status_json());
  ASSERT_EQ(st["gpus"].size(), 2u) << st.dump();
  double busy = 0;
  for (const auto& g : st["gpus"]) busy += g["busy_ratio"].get<double>();
  EXPECT_GT(busy, 0.0) << "no busy time recorded: " << st.dump();
  EXPECT_EQ(server->terminate(), 0);
}

/* A device budget smaller than the key: its bases are streamed query by
   query for each proof, and the proofs are still the CPU backend's, byte for byte. */
TEST(DeviceService, AKeyLargerThanTheDeviceBudgetIsStreamedAndItsProofsMatchTheCpuBackend) {
  REQUIRE_DEVICE();
  const std::string circuit = "chain:size=20000";
  const auto seed = test::seed();
  auto run = [&](const std::string& be, const std::vector<std::string>& extra) {
    auto streamed_only = [&](const std::string& logs) {
      if (be != "cuda") return;
      EXPECT_NE(logs.find("streamed=true"), std::string::npos) << "the key was not streamed";
      EXPECT_EQ(logs.find("streamed=false"), std::string::npos) << "a proof used resident bases";
    };
    return fixed_blinding_proofs(
        {"2x32768"}, be, extra, 1, "streamed-", 3, [&](std::size_t) { return circuit; }, seed, streamed_only);
  };
  const auto cpu = run("cpu", {});
  const auto streamed = run("cuda", {"--device-budget", "0.004"});  // 4 MiB: the key's bases alone need more
  ASSERT_EQ(cpu.size(), 3u);
  EXPECT_EQ(streamed, cpu) << "streamed bases gave other proofs than the CPU backend";
}

/* A key that would stay resident with fewer proving workers than the server
   runs (the 2^27 case on an H200): streamed, and the log says how many
   workers a GPU may run for it to stay resident; proofs are still valid. */
TEST(DeviceService, AKeyThatFitsOnlyWithFewerWorkersIsStreamedAndTheLogSaysHowMany) {
  REQUIRE_DEVICE();
  const std::string circuit = "chain:size=20000";
  const auto& key = key_for(circuit);
  auto sizes = [&](const std::string& budget) {  // (bases and workspace, buffers a worker) from the server's log
    service svc({"2x32768"});
    svc.backend = "cuda";
    auto server = svc.start_server({}, {"--key", key.path, "--device-budget", budget});
    auto c = svc.connect();
    (void)c.status();
    EXPECT_EQ(server->terminate(), 0);
    return server_logs(svc);
  };
  const auto tiny = sizes("0.004");
  const auto at = tiny.find("(bases and MSM workspace ");
  ASSERT_NE(at, std::string::npos) << tiny;
  double bases = 0, work = 0;
  ASSERT_EQ(
      std::sscanf(tiny.c_str() + at, "(bases and MSM workspace %lf GiB, buffers %lf GiB a worker)", &bases, &work), 2)
      << tiny.substr(at, 120);
  char budget[32];
  std::snprintf(budget, sizeof budget, "%.4f", bases + 1.5 * work);  // room for one worker's buffers, not two
  service svc({"2x32768"});
  svc.backend = "cuda";
  auto server = svc.start_server({}, {"--key", key.path, "--device-budget", budget, "--workers-per-gpu", "2"});
  auto worker = svc.start_worker("worker@1");
  auto c = svc.connect();
  c.submit(job("fewer-workers", circuit, test::seed()));
  EXPECT_EQ(proven(c, "fewer-workers", circuit).size(), 1u);
  EXPECT_EQ(server->terminate(), 0);
  const auto logs = server_logs(svc);
  EXPECT_NE(logs.find("so it is streamed for every proof; with --workers-per-gpu 1 it would stay resident"),
            std::string::npos)
      << logs;
  EXPECT_NE(logs.find("streamed=true"), std::string::npos) << "the key was not streamed";
}

/* A proof that cannot fit the device's memory (here: a reserve larger than
   the device) fails that job with a message saying what it needed; the
   server keeps serving and nothing crashes. */
TEST(DeviceService, AProofThatCannotFitTheDeviceFailsItsJobSayingWhatItNeeded) {
  REQUIRE_DEVICE();
  const std::string circuit = "chain:size=1500";
  service svc({"2x4096"});
  svc.backend = "cuda";
  auto server = svc.start_server({}, {"--device-reserve", "100000"});
  auto worker = svc.start_worker("worker@1");
  auto c = svc.connect();
  c.submit(job("too-big", circuit, test::seed()));
  auto out = c.wait("too-big", 120s);
  const auto* st = std::get_if<proto::job_status>(&out);
  ASSERT_NE(st, nullptr) << "a proof was made with no device memory to make it in";
  EXPECT_EQ(st->state, proto::job_state::failed);
  EXPECT_NE(st->error.find("does not fit"), std::string::npos) << st->error;
  EXPECT_NE(st->error.find("MiB"), std::string::npos) << st->error;
  EXPECT_TRUE(server->running()) << "the server died";
  EXPECT_NO_THROW((void)c.status("too-big"));
  EXPECT_EQ(server->terminate(), 0);
}

/* kill -9 of the server while it proves on the GPU: the slots it held
   PROVING and those FILLED behind them are proven by the next server, with
   no new synthesis. */
TEST(DeviceService, KillNineOfTheServerMidProofLeavesFilledSlotsTheNextServerProves) {
  REQUIRE_DEVICE();
  const std::string circuit = "chain:size=200000";
  service svc({"4x262144"});
  svc.backend = "cuda";
  key_for(circuit);
  auto server = svc.start_server();
  std::vector<std::unique_ptr<process>> workers;
  for (int i = 0; i < 2; ++i) workers.push_back(svc.start_worker("worker@" + std::to_string(i + 1)));
  const auto seed = test::seed();
  std::vector<std::string> ids;
  {
    auto c = svc.connect();
    for (int i = 0; i < 6; ++i) {
      ids.push_back("kill-" + std::to_string(i));
      c.submit(job(ids.back(), circuit, seed + i));
    }
  }
  /* kill it the moment a slot is PROVING */
  bool proving = false;
  for (auto t0 = std::chrono::steady_clock::now(); !proving && std::chrono::steady_clock::now() - t0 < 120s;) {
    proving = slot_states(svc)["proving"] > 0;
    if (!proving) std::this_thread::sleep_for(1ms);
  }
  ASSERT_TRUE(proving) << "no slot was ever PROVING";
  server->kill9();
  const auto left = slot_states(svc);
  EXPECT_GT(left.at("proving"), 0) << "the kill came after the proof";
  auto restarted = svc.start_server();
  auto c = svc.connect();
  for (const auto& id : ids) {
    EXPECT_EQ(proven(c, id, circuit).size(), 1u);
    EXPECT_EQ(syntheses(c, id), 1u) << id << " was synthesized again";
  }
  EXPECT_EQ(restarted->terminate(), 0);
}
#endif

TEST(DeviceService, ATransientDeviceErrorRetriesTheFilledSlotWithoutANewSynthesis) {
  REQUIRE_DEVICE();
  const std::string circuit = "chain:size=1500";
  service svc({"2x4096"});
  svc.backend = backend;
  auto server = svc.start_server({{"CUZK_CUDA_FAULT", "transient:1"}});
  auto worker = svc.start_worker("worker@1");
  auto c = svc.connect();
  c.submit(job("transient", circuit, test::seed()));
  EXPECT_EQ(proven(c, "transient", circuit).size(), 1u);
  EXPECT_EQ(syntheses(c, "transient"), 1u) << "the slot was synthesized again";
  EXPECT_EQ(c.status("transient").partitions.at(0).attempts, 0u)
      << "the partition was requeued, not retried in its slot";
  EXPECT_NE(server_logs(svc).find("will be retried"), std::string::npos);
  EXPECT_EQ(server->terminate(), 0);
}

TEST(DeviceService, RepeatedDeviceErrorsFailOnlyThatJobAfterTheAttempts) {
  REQUIRE_DEVICE();
  const std::string circuit = "chain:size=1500";
  service svc({"2x4096"});
  svc.backend = backend;
  auto server = svc.start_server({{"CUZK_CUDA_FAULT", "transient:1:3"}});  // every attempt of the first job
  auto worker = svc.start_worker("worker@1");
  auto c = svc.connect();
  c.submit(job("doomed", circuit, test::seed()));
  auto out = c.wait("doomed", 120s);
  const auto* st = std::get_if<proto::job_status>(&out);
  ASSERT_NE(st, nullptr) << "a job whose every proof attempt failed was proven";
  EXPECT_EQ(st->state, proto::job_state::failed);
  EXPECT_NE(st->error.find("CUZK_CUDA_FAULT"), std::string::npos) << st->error;
  EXPECT_EQ(syntheses(c, "doomed"), 1u);
  c.submit(job("after", circuit, test::seed() + 1));  // the server keeps proving
  EXPECT_EQ(proven(c, "after", circuit).size(), 1u);
  EXPECT_EQ(server->terminate(), 0);
}

TEST(DeviceService, AStickyDeviceErrorExitsWithCode75AndTheNextServerProvesTheFilledSlot) {
  REQUIRE_DEVICE();
  const std::string circuit = "chain:size=1500";
  service svc({"2x4096"});
  svc.backend = backend;
  auto server = svc.start_server({{"CUZK_CUDA_FAULT", "sticky:1"}});
  auto worker = svc.start_worker("worker@1");
  {
    auto c = svc.connect();
    c.submit(job("sticky", circuit, test::seed()));
  }
  auto st = server->wait_exit(120s);
  ASSERT_TRUE(st.has_value()) << "the server did not exit after a sticky device error";
  ASSERT_TRUE(WIFEXITED(*st)) << "the server died of a signal";
  EXPECT_EQ(WEXITSTATUS(*st), exit_device_lost);
  EXPECT_EQ(slot_states(svc)["filled"], 1) << "the slot being proven is not FILLED again";
  auto restarted = svc.start_server();
  auto c = svc.connect();
  EXPECT_EQ(proven(c, "sticky", circuit).size(), 1u);
  EXPECT_EQ(syntheses(c, "sticky"), 1u) << "the restarted server had the slot synthesized again";
  EXPECT_EQ(restarted->terminate(), 0);
}

TEST(DeviceService, AMalformedFaultSpecStopsTheServerWithAClearError) {
  service svc({"2x4096"});
  svc.backend = backend;
  auto server = svc.start_server({{"CUZK_CUDA_FAULT", "sometimes"}});
  auto st = server->wait_exit(30s);
  ASSERT_TRUE(st.has_value());
  EXPECT_TRUE(WIFEXITED(*st) && WEXITSTATUS(*st) == 1);
  EXPECT_NE(server_logs(svc).find("CUZK_CUDA_FAULT must be"), std::string::npos);
}

}  // namespace
}  // namespace cuzk::test
