// The service end to end with real processes, sockets and shared memory.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <zmq.hpp>

#include <csignal>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <thread>

#include "harness.hpp"
#include "io/zkey.hpp"
#include "proto/codec.hpp"
#include "seed.hpp"
#include "shm/shm_dir.hpp"

namespace cuzk::test {
namespace {

using namespace std::chrono_literals;

proto::submit native_job(const std::string& id, const std::string& circuit, std::uint64_t seed,
                         proto::priority prio = proto::priority::normal) {
  proto::submit s;
  s.job_id = id;
  s.client = "service_test";
  s.priority = prio;
  s.zkey = key_for(circuit).path;
  s.work = proto::native_work{circuit, inputs_for(circuit, seed)};
  return s;
}

/* Waits for the job and checks every partition's proof against the key. */
void expect_proven(client::connection& c, const std::string& job_id, const std::string& circuit,
                   std::chrono::milliseconds limit = 120s) {
  auto out = c.wait(job_id, limit);
  const auto* pr = std::get_if<proto::proof_reply>(&out);
  ASSERT_NE(pr, nullptr) << job_id << " did not finish: "
                         << (std::holds_alternative<proto::job_status>(out) ? std::get<proto::job_status>(out).error
                                                                            : "");
  ASSERT_FALSE(pr->partitions.empty());
  for (const auto& p : pr->partitions)
    EXPECT_TRUE(verifies(*key_for(circuit).pk, p.proof_json, p.public_json)) << job_id;
}

std::uint32_t syntheses(client::connection& c, const std::string& job_id) {
  auto st = c.status(job_id);
  std::uint32_t n = 0;
  for (const auto& p : st.partitions) n += p.syntheses;
  return n;
}

TEST(Service, TwentyFourMixedJobsOnThreeWorkersAllVerify) {
  const std::vector<std::string> circuits = {"chain:size=300", "chain:size=1500", "poseidon-merkle:depth=2",
                                             "sha256:bytes=3"};
  for (const auto& c : circuits) key_for(c);  // setup outside the timed part
  service svc({"4x4096", "2x32768"});
  auto server = svc.start_server();
  std::vector<std::unique_ptr<process>> workers;
  for (int i = 0; i < 3; ++i) workers.push_back(svc.start_worker("worker@" + std::to_string(i + 1)));
  auto c = svc.connect();
  auto rng = test::rng(24);
  std::vector<std::pair<std::string, std::string>> jobs;
  for (int i = 0; i < 24; ++i) {
    const auto& circuit = circuits[i % circuits.size()];
    const auto prio = static_cast<proto::priority>(rng() % 3);
    auto s = native_job("mixed-" + std::to_string(i), circuit, rng(), prio);
    if (i % 6 == 5) {  // some jobs with two partitions, one input set each
      s.partitions = 2;
      s.work = proto::native_work{circuit, "[" + inputs_for(circuit, rng()) + "," + inputs_for(circuit, rng()) + "]"};
    }
    auto a = c.submit(s);
    EXPECT_TRUE(a.created);
    jobs.emplace_back(s.job_id, circuit);
  }
  for (const auto& [id, circuit] : jobs) expect_proven(c, id, circuit);
  for (const auto& [id, circuit] : jobs) EXPECT_GE(syntheses(c, id), 1u);
  EXPECT_EQ(server->terminate(), 0);
  for (auto& w : workers) EXPECT_EQ(w->terminate(), 0);
}

TEST(Service, ResubmittingAJobIdReturnsTheSameJobAndNeverProvesTwice) {
  service svc({"2x4096"});
  auto server = svc.start_server();
  auto worker = svc.start_worker("worker@1");
  auto c = svc.connect();
  auto s = native_job("same-id", "chain:size=300", test::seed());
  EXPECT_TRUE(c.submit(s).created);
  expect_proven(c, "same-id", "chain:size=300");
  auto again = c.submit(s);
  EXPECT_FALSE(again.created);
  EXPECT_EQ(again.state, proto::job_state::done);
  EXPECT_EQ(syntheses(c, "same-id"), 1u);
}

/* waits until every partition of the job is synthesized (its slot FILLED); false after `limit` */
bool all_synthesized(client::connection& c, const std::string& job_id, std::chrono::milliseconds limit = 60s) {
  const auto until = std::chrono::steady_clock::now() + limit;
  do {
    auto st = c.status(job_id);
    bool all = !st.partitions.empty();
    for (const auto& p : st.partitions) all = all && p.state == proto::partition_state::synthesized;
    if (all) return true;
    std::this_thread::sleep_for(50ms);
  } while (std::chrono::steady_clock::now() < until);
  return false;
}

// --hold-proving and SIGUSR1: workers fill slots, FILLED slots wait; SIGUSR2
// proves them without a new synthesis.
TEST(Service, HeldProvingFillsSlotsThatSigusr2Proves) {
  const std::string circuit = "chain:size=300";
  key_for(circuit);
  service svc({"3x4096"});
  auto server = svc.start_server({}, {"--hold-proving"});
  auto worker = svc.start_worker("worker@1");
  auto c = svc.connect();
  for (int i = 0; i < 3; ++i)
    EXPECT_TRUE(c.submit(native_job("held-" + std::to_string(i), circuit, test::seed())).created);
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(all_synthesized(c, "held-" + std::to_string(i))) << i;
  std::this_thread::sleep_for(1s);  // held: still FILLED a second later
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(all_synthesized(c, "held-" + std::to_string(i), 0ms)) << i;
  ASSERT_EQ(::kill(server->pid(), SIGUSR2), 0);
  for (int i = 0; i < 3; ++i) expect_proven(c, "held-" + std::to_string(i), circuit);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(syntheses(c, "held-" + std::to_string(i)), 1u);
  /* held again at run time */
  ASSERT_EQ(::kill(server->pid(), SIGUSR1), 0);
  ASSERT_TRUE(
      eventually([&] { return server_logs(svc).find("proving held: synthesis goes on") != std::string::npos; }, 30s))
      << "the loop did not take the signal\n"
      << server_logs(svc);
  EXPECT_TRUE(c.submit(native_job("held-later", circuit, test::seed())).created);
  ASSERT_TRUE(all_synthesized(c, "held-later"));
  std::this_thread::sleep_for(1s);
  ASSERT_TRUE(all_synthesized(c, "held-later", 0ms));
  ASSERT_EQ(::kill(server->pid(), SIGUSR2), 0);
  expect_proven(c, "held-later", circuit);
  EXPECT_EQ(server->terminate(), 0);
}

// Each proven partition keeps its proof's phases in the job record: cuzk
// status --json shows them (seconds) with the GPU (-1 on the CPU), cuzk-shm
// status shows the record's; the server's --hung-timeout reaches both.
TEST(Service, StatusShowsEachProvenPartitionsPhaseTimingsAndTheServersHungTimeout) {
  service svc({"2x4096"});
  auto server = svc.start_server({}, {"--hung-timeout", "45"});
  auto worker = svc.start_worker("worker@1");
  auto c = svc.connect();
  auto rng = test::rng(5);
  auto s = native_job("timed", "chain:size=1500", rng());
  s.partitions = 2;
  const std::string inputs =
      "[" + inputs_for("chain:size=1500", rng()) + "," + inputs_for("chain:size=1500", rng()) + "]";
  s.work = proto::native_work{"chain:size=1500", inputs};
  ASSERT_TRUE(c.submit(s).created);
  expect_proven(c, "timed", "chain:size=1500");
  const bool on_cpu = svc.backend == "cpu";

  const auto job = nlohmann::json::parse(svc.cli_status_json("timed"));
  ASSERT_EQ(job["partitions"].size(), 2u) << job.dump(1);
  for (const auto& p : job["partitions"]) {
    ASSERT_EQ(p["state"], "done") << p.dump(1);
    ASSERT_TRUE(p["timings"].is_object()) << p.dump(1);
    const auto& t = p["timings"];
    const double total = t["total"].get<double>();
    EXPECT_GT(total, 0) << t.dump(1);
    for (const char* part : {"msm_a", "msm_b_g1", "msm_b_g2", "msm_l", "msm_h", "ntt", "h2d", "batch_add"}) {
      EXPECT_GE(t[part].get<double>(), 0) << part;
      EXPECT_LE(t[part].get<double>(), total) << part << " longer than the whole proof: " << t.dump(1);
    }
    EXPECT_GT(t["msm_a"].get<double>() + t["msm_l"].get<double>() + t["msm_h"].get<double>(), 0) << t.dump(1);
    EXPECT_GT(t["verify"].get<double>(), 0) << t.dump(1);
    EXPECT_GT(t["cpu_prep"].get<double>(), 0) << t.dump(1);
    EXPECT_EQ(p["gpu"].get<int>() >= 0, !on_cpu) << "gpu -1 on the CPU, a device index on a GPU: " << p.dump(1);
  }
  // The same through the library, in microseconds.
  const auto st = c.status("timed");
  ASSERT_TRUE(st.partitions[0].timings);
  EXPECT_NEAR(static_cast<double>((*st.partitions[0].timings)[groth16::timing::total]) / 1e6,
              job["partitions"][0]["timings"]["total"].get<double>(), 1e-6);

  const auto all = nlohmann::json::parse(svc.cli_status_json());
  EXPECT_EQ(all["hung_timeout_ms"], 45000) << "the server's --hung-timeout";
  ASSERT_TRUE(all["gpus"].is_array());
  EXPECT_EQ(all["gpus"].empty(), on_cpu) << "GPUs only on a GPU backend: " << all["gpus"].dump(1);

  const auto shm = nlohmann::json::parse(svc.shm_status_json());
  EXPECT_EQ(shm["hung_after_s"].get<double>(), 45) << "cuzk-shm status takes the server's hung timeout";
  bool found = false;
  for (const auto& j : shm["jobs"])
    if (j["id"] == "timed")
      for (const auto& p : j["partitions"]) {
        found = true;
        EXPECT_GT(p["total_us"].get<std::uint64_t>(), 0u) << p.dump();
        EXPECT_EQ(p["gpu"].get<int>() >= 0, !on_cpu) << p.dump();
      }
  EXPECT_TRUE(found) << shm.dump(1);
  EXPECT_EQ(server->terminate(), 0);
}

TEST(Service, BadRequestsGetClearErrorsAndTheServerKeepsServing) {
  service svc({"2x4096"});
  auto server = svc.start_server();
  auto worker = svc.start_worker("worker@1");
  auto c = svc.connect();
  auto unknown = native_job("bad-circuit", "chain:size=300", 1);
  std::get<proto::native_work>(unknown.work).circuit = "no-such-circuit";
  try {
    c.submit(unknown);
    ADD_FAILURE() << "an unknown circuit was accepted";
  } catch (const client::server_error& e) {
    EXPECT_EQ(e.code(), proto::error_code::unknown_circuit) << e.what();
  }
  auto mismatch = native_job("bad-key", "chain:size=300", 1);
  mismatch.zkey = key_for("chain:size=1500").path;
  EXPECT_THROW(c.submit(mismatch), client::server_error);
  auto srs_regions = [&] {
    int n = 0;
    for (const auto& e : fs::directory_iterator(shm::shm_dir()))
      n += e.path().filename().string().rfind(svc.pool() + ".srs.", 0) == 0;
    return n;
  };
  const int regions = srs_regions();
  ASSERT_GT(regions, 0) << "the keys loaded so far live in SRS regions";
  auto big = native_job("too-big", "sha256:bytes=3", 1);  // domain 2^15: no slot class holds it
  try {
    c.submit(big);
    ADD_FAILURE() << "a job larger than every slot class was accepted";
  } catch (const client::server_error& e) {
    EXPECT_NE(std::string(e.what()).find("slot class"), std::string::npos) << e.what();
  }
  EXPECT_EQ(srs_regions(), regions) << "the refused key stayed in the pool's directory";
  auto wrong_inputs = native_job("bad-inputs", "chain:size=300", 1);
  std::get<proto::native_work>(wrong_inputs.work).inputs_json = "{\"nope\": 1}";
  EXPECT_THROW(c.submit(wrong_inputs), client::server_error);
  auto big_blinding = native_job("bad-blinding", "chain:size=300", 1);
  big_blinding.blinding = proto::blinding{std::string(77, '9'), "1"};  // 10^77 − 1 > r
  try {
    c.submit(big_blinding);
    ADD_FAILURE() << "a blinding value above r was accepted";
  } catch (const client::server_error& e) {
    EXPECT_EQ(e.code(), proto::error_code::bad_request) << e.what();
  }
  c.submit(native_job("good", "chain:size=300", test::seed()));
  expect_proven(c, "good", "chain:size=300");
  // A fixed blinding travels with the job to its prover: the same inputs, r and s give the same proof.
  std::vector<std::string> proofs;
  for (const std::string id : {"fixed-1", "fixed-2"}) {
    auto s = native_job(id, "chain:size=300", 7);
    s.blinding = proto::blinding{"12345", "67890"};
    c.submit(s);
    expect_proven(c, id, "chain:size=300");
    const auto out = c.wait(id, 10s);
    ASSERT_TRUE(std::holds_alternative<proto::proof_reply>(out));
    proofs.push_back(std::get<proto::proof_reply>(out).partitions.at(0).proof_json);
  }
  EXPECT_EQ(proofs[0], proofs[1]);
}

TEST(Service, GarbageOversizedAndWrongVersionFramesGetErrorRepliesWhileJobsComplete) {
  service svc({"2x4096"});
  auto server = svc.start_server();
  auto worker = svc.start_worker("worker@1");
  auto c = svc.connect();
  c.submit(native_job("during-garbage", "chain:size=1500", test::seed()));

  zmq::context_t ctx;
  zmq::socket_t raw(ctx, zmq::socket_type::dealer);
  raw.set(zmq::sockopt::linger, 0);
  raw.set(zmq::sockopt::rcvtimeo, 10000);
  raw.connect(svc.endpoint());
  auto expect_error = [&](std::vector<std::uint8_t> frame, proto::error_code code, const char* what) {
    raw.send(zmq::buffer(frame), zmq::send_flags::none);
    zmq::message_t reply;
    ASSERT_TRUE(raw.recv(reply)) << what << ": no reply";
    auto m = proto::decode({static_cast<const std::uint8_t*>(reply.data()), reply.size()});
    ASSERT_TRUE(m) << what;
    const auto* e = std::get_if<proto::error_reply>(&m->body);
    ASSERT_NE(e, nullptr) << what << ": not an Error reply";
    EXPECT_EQ(e->code, code) << what << ": " << e->message;
  };
  auto rng = test::rng(7);
  for (int i = 0; i < 20; ++i) {
    std::vector<std::uint8_t> junk(1 + rng() % 200);
    for (auto& b : junk) b = static_cast<std::uint8_t>(rng());
    junk[0] = 0xff;  // field 31, wire type 7: never a valid protobuf start
    expect_error(junk, proto::error_code::malformed, "garbage");
  }
  expect_error(std::vector<std::uint8_t>(1 << 20, 0x41), proto::error_code::too_large, "1 MiB frame");
  auto valid = proto::encode(proto::status_request{});
  ASSERT_GE(valid.size(), 2u);
  ASSERT_EQ(valid[0], 0x08);  // field 1 (version), varint
  valid[1] = 99;
  expect_error(valid, proto::error_code::unsupported_version, "version 99");
  raw.send(zmq::buffer(std::string("a")), zmq::send_flags::sndmore);
  expect_error({0x08}, proto::error_code::malformed, "two frames");

  expect_proven(c, "during-garbage", "chain:size=1500");
}

TEST(Service, AWorkerStartedBeforeTheServerWaitsAndJoins) {
  service svc({"2x4096"});
  auto worker = svc.start_worker("early");
  std::this_thread::sleep_for(1500ms);
  ASSERT_TRUE(worker->running());
  auto server = svc.start_server();
  auto c = svc.connect();
  c.submit(native_job("late-server", "chain:size=300", test::seed()));
  expect_proven(c, "late-server", "chain:size=300", 60s);
  EXPECT_EQ(worker->terminate(), 0);
  EXPECT_EQ(server->terminate(), 0);
}

TEST(Service, KeysGivenAtStartAreInTheirSrsRegionsBeforeTheFirstSubmit) {
  service svc({"2x4096"});
  const auto& key = key_for("chain:size=300");
  auto server = svc.start_server({}, {"--key", key.path});
  auto worker = svc.start_worker("worker@1");
  auto c = svc.connect();
  ASSERT_TRUE(eventually([&] { return c.status().workers.size() == 1; }, 20s));
  int regions = 0;
  for (const auto& e : fs::directory_iterator(shm::shm_dir()))
    regions += e.path().filename().string().rfind(svc.pool() + ".srs.", 0) == 0;
  EXPECT_EQ(regions, 1);
  c.submit(native_job("preloaded", "chain:size=300", test::seed()));
  expect_proven(c, "preloaded", "chain:size=300");
}

TEST(Service, AKeyIdAtStartNamesAKeyThePoolHoldsAndJobsNameItByItsId) {
  service svc({"2x4096"});
  const auto& key = key_for("chain:size=300");
  const std::string id = load_srs(svc, key.path);
  ASSERT_EQ(id.size(), 32u) << id;
  auto server = svc.start_server({}, {"--key", id});
  auto worker = svc.start_worker("worker@1");
  auto c = svc.connect();
  ASSERT_TRUE(eventually([&] { return c.status().workers.size() == 1; }, 20s));
  EXPECT_NE(server_logs(svc).find("key " + id + " (" + id + "): domain 2^9"), std::string::npos)
      << "the server did not load the key before serving";
  auto s = native_job("by-key-id", "chain:size=300", test::seed());
  s.zkey = id;
  c.submit(s);
  expect_proven(c, "by-key-id", "chain:size=300");
  const auto logs = server_logs(svc);
  EXPECT_NE(logs.find("key " + id + ": its SRS region hashes to its id (checked in"), std::string::npos) << logs;
}

/* cuzk setup --pool: the key straight into the pool, the bytes --zkey then
   load-srs would give; a job names it by id and its proof verifies. */
TEST(Service, SetupIntoThePoolGivesTheKeyLoadSrsWouldAndJobsProveWithIt) {
  service svc({"2x4096"});
  const std::string seed = "pool-" + std::to_string(test::seed());
  const auto id_file = svc.dir() / "key-id", zkey = svc.dir() / "k.zkey";
  const std::string setup = cli_bin() + " setup --circuit chain:size=300 --backend cpu --seed " + seed;
  ASSERT_EQ(std::system((setup + " --pool " + svc.pool() + " > " + id_file.string() + " 2>/dev/null").c_str()), 0);
  ASSERT_EQ(std::system((setup + " --zkey " + zkey.string() + " 2>/dev/null").c_str()), 0);
  std::string id = read_all(id_file);
  id.erase(id.find_last_not_of('\n') + 1);
  const std::string id2 = load_srs(svc, zkey.string());
  ASSERT_EQ(id.size(), 32u) << id;
  EXPECT_EQ(id, id2) << "cuzk setup --pool and --zkey + load-srs wrote different keys";
  int regions = 0;
  for (const auto& e : fs::directory_iterator(shm::shm_dir()))
    regions += e.path().filename().string().rfind(svc.pool() + ".srs.", 0) == 0;
  EXPECT_EQ(regions, 1);
  const std::string none = setup + " --pool " + svc.pool() + "-missing > /dev/null 2> " + (svc.dir() / "err").string();
  EXPECT_NE(std::system(none.c_str()), 0);
  EXPECT_NE(read_all(svc.dir() / "err").find("no such pool"), std::string::npos) << read_all(svc.dir() / "err");

  auto server = svc.start_server({}, {"--key", id});
  auto worker = svc.start_worker("worker@1");
  auto c = svc.connect();
  auto s = native_job("set-up-in-pool", "chain:size=300", test::seed());
  s.zkey = id;
  c.submit(s);
  auto out = c.wait("set-up-in-pool", 60s);
  const auto* pr = std::get_if<proto::proof_reply>(&out);
  ASSERT_NE(pr, nullptr);
  const auto pk = io::read_zkey_file(zkey);
  for (const auto& p : pr->partitions) EXPECT_TRUE(verifies(pk, p.proof_json, p.public_json));
}

/* A key named by id is checked against its id while the server already
   serves; one whose region was altered fails its jobs, and only those. */
TEST(Service, AKeyIdWhoseRegionWasAlteredFailsItsJobsWhileOthersAreProven) {
  service svc({"2x4096"});
  const auto& key = key_for("chain:size=300");
  const std::string id = load_srs(svc, key.path);
  {  // a byte of the contributions' hash (opaque to the parser): the content no longer hashes to id
    const auto region = shm::shm_path(svc.pool() + ".srs." + id);
    std::fstream f(region, std::ios::in | std::ios::out | std::ios::binary);
    const auto at = static_cast<std::streamoff>(4096 + fs::file_size(key.path) - 20);
    f.seekg(at);
    char b = 0;
    f.read(&b, 1);
    b = static_cast<char>(b ^ 0x5a);
    f.seekp(at);
    f.write(&b, 1);
    ASSERT_TRUE(f.good());
  }
  auto server = svc.start_server({}, {"--key", id});
  auto worker = svc.start_worker("worker@1");
  auto c = svc.connect();
  ASSERT_TRUE(eventually([&] { return c.status().workers.size() == 1; }, 20s));
  auto bad = native_job("altered", "chain:size=300", test::seed());
  bad.zkey = id;
  try {
    c.submit(bad);
    auto out = c.wait("altered", 60s);
    const auto* st = std::get_if<proto::job_status>(&out);
    ASSERT_NE(st, nullptr) << "a job with an altered key was proven";
    EXPECT_EQ(st->state, proto::job_state::failed);
    EXPECT_NE(st->error.find("does not hash to its key id"), std::string::npos) << st->error;
  } catch (const std::exception& e) {  // refused at Submit, once the check has run
    EXPECT_NE(std::string(e.what()).find("does not hash to its key id"), std::string::npos) << e.what();
  }
  std::string logs;
  ASSERT_TRUE(eventually(
      [&] {
        logs = server_logs(svc);
        return logs.find("key " + id + ": SRS region " + id + " does not hash to its key id") != std::string::npos;
      },
      20s))
      << logs;
  c.submit(native_job("other", "poseidon-merkle:depth=2", test::seed()));
  expect_proven(c, "other", "poseidon-merkle:depth=2");
}

TEST(Service, AKeyIdThePoolDoesNotHoldStopsTheServer) {
  service svc({"2x4096"});
  const std::string id = "0123456789abcdef0123456789abcdef";
  auto server = svc.start_server({}, {"--key", id});
  auto st = server->wait_exit(20s);
  ASSERT_TRUE(st.has_value());
  EXPECT_TRUE(WIFEXITED(*st) && WEXITSTATUS(*st) != 0);
  const auto logs = server_logs(svc);
  EXPECT_NE(logs.find("the pool holds no key " + id), std::string::npos) << logs;
}

TEST(Service, AMissingKeyAtStartStopsTheServerWithAClearError) {
  service svc({"2x4096"});
  auto server = svc.start_server({}, {"--key", "/nonexistent/k.zkey"});
  auto st = server->wait_exit(20s);
  ASSERT_TRUE(st.has_value());
  EXPECT_TRUE(WIFEXITED(*st) && WEXITSTATUS(*st) != 0);
}

}  // namespace
}  // namespace cuzk::test
