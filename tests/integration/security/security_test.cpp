// A hostile local client against the real service (DESIGN §9, issue 10):
// a second uid (nobody, through setpriv) and raw sockets try to read, forge,
// stall and evict; each test failed on the service before the trust model.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zmq.hpp>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <grp.h>
#include <nlohmann/json.hpp>
#include <pwd.h>
#include <random>
#include <thread>

#include "circuits/registry.hpp"
#include "client/lib/errors.hpp"
#include "harness.hpp"
#include "hostile.hpp"
#include "io/snarkjs_json.hpp"
#include "proto/codec.hpp"
#include "run.hpp"
#include "seed.hpp"
#include "shm/srs_region.hpp"

namespace cuzk::test {
namespace {

using namespace std::chrono_literals;

using fr_t = ff::fr_t;
const std::string circuit = "chain:size=64";

void write_file(const fs::path& p, const std::string& text, mode_t mode = 0644) {
  std::ofstream(p) << text;
  ::chmod(p.c_str(), mode);
}

proto::submit job(const std::string& id, std::uint64_t seed) {
  proto::submit s;
  s.job_id = id;
  s.client = "security_test";
  s.zkey = key_for(circuit).path;
  s.work = proto::native_work{circuit, inputs_for(circuit, seed)};
  return s;
}

/* The public signals a circuit gives for these inputs. */
std::vector<fr_t> expected_public(const std::string& inputs_json) {
  auto c = circuits::make_circuit(circuit);
  return c->public_values(*c->parse_inputs(nlohmann::json::parse(inputs_json)));
}

std::vector<fr_t> proven_public(client::connection& c, const std::string& id) {
  auto out = c.wait(id, 120s);
  const auto* pr = std::get_if<proto::proof_reply>(&out);
  if (!pr) {
    ADD_FAILURE() << id << " did not finish";
    return {};
  }
  EXPECT_TRUE(verifies(*key_for(circuit).pk, pr->partitions.at(0).proof_json, pr->partitions.at(0).public_json));
  return io::public_from_json(nlohmann::json::parse(pr->partitions.at(0).public_json));
}

TEST(Security, AClientSeesWaitsOnAndFetchesOnlyItsOwnJobs) {
  REQUIRE_SECOND_UID();
  service svc({"2x4096"});
  auto server = svc.start_server({}, {"--client-group", "nogroup"});
  auto worker = svc.start_worker("w1");
  auto c = svc.connect();
  c.submit(job("private-job", seed()));
  ASSERT_FALSE(proven_public(c, "private-job").empty());

  for (auto args : {std::vector<std::string>{"status", "--job-id", "private-job"},
                    std::vector<std::string>{"wait", "--job-id", "private-job", "--proof", "/dev/null", "--public",
                                             "/dev/null", "--timeout", "2"}}) {
    args.insert(args.begin() + 1, {"--endpoint", svc.endpoint()});
    const auto r = cli(true, args);
    EXPECT_EQ(r.exit, 2) << r.output;
    EXPECT_NE(r.output.find("unknown_job"), std::string::npos) << r.output;
  }
  // Fetch through the client library, in a child that became nobody.
  const pid_t child = ::fork();
  if (child == 0) {
    if (::setgroups(0, nullptr) != 0 || ::setgid(::getgrnam("nogroup")->gr_gid) != 0 ||
        ::setuid(::getpwnam("nobody")->pw_uid) != 0)
      ::_exit(3);
    try {
      client::connection other(svc.endpoint());
      (void)other.fetch("private-job");
      ::_exit(1);  // another client's proof was handed over
    } catch (const client::server_error& e) {
      ::_exit(e.code() == proto::error_code::unknown_job ? 0 : 2);
    } catch (...) {
      ::_exit(4);
    }
  }
  int st = 0;
  ASSERT_EQ(::waitpid(child, &st, 0), child);
  EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0) << "Fetch of another client's job: child status " << st;
  const auto all = cli(true, {"status", "--endpoint", svc.endpoint(), "--json"});
  EXPECT_EQ(all.exit, 0) << all.output;
  EXPECT_EQ(all.output.find("private-job"), std::string::npos) << "another client's job is listed:\n" << all.output;
  // The owner (here also an operator) still sees it.
  EXPECT_EQ(c.status("private-job").state, proto::job_state::done);
}

TEST(Security, AJobIdPresubmittedByAnotherClientNeverHandsOverItsProof) {
  REQUIRE_SECOND_UID();
  service svc({"2x4096"});
  auto server = svc.start_server({}, {"--client-group", "nogroup"});
  const auto theirs = inputs_for(circuit, seed()), mine = inputs_for(circuit, seed() + 1);
  write_file(svc.dir() / "theirs.json", theirs);
  const auto r = cli(true, {"submit", "--endpoint", svc.endpoint(), "--zkey", key_for(circuit).path, "--circuit",
                            circuit, "--inputs", (svc.dir() / "theirs.json").string(), "--job-id", "shared-id"});
  ASSERT_EQ(r.exit, 0) << r.output;
  auto worker = svc.start_worker("w1");
  auto c = svc.connect();
  auto s = job("shared-id", 0);
  s.work = proto::native_work{circuit, mine};
  const auto acc = c.submit(s);
  EXPECT_TRUE(acc.created) << "the id was taken as the other client's job";
  EXPECT_EQ(proven_public(c, "shared-id"), expected_public(mine));
}

TEST(Security, ResubmittingAnIdWithAnotherRequestIsAConflict) {
  service svc({"2x4096"});
  auto server = svc.start_server();
  auto c = svc.connect();
  EXPECT_TRUE(c.submit(job("twice", seed())).created);
  EXPECT_FALSE(c.submit(job("twice", seed())).created);  // the same request: idempotent
  try {
    c.submit(job("twice", seed() + 1));
    ADD_FAILURE() << "a different request under the same id was accepted";
  } catch (const client::server_error& e) {
    EXPECT_EQ(e.code(), proto::error_code::conflict) << e.what();
  }
}

TEST(Security, WorkerMessagesAreRefusedOnTheClientEndpointAndFromProcessesThatDoNotHoldTheLease) {
  service svc({"2x4096"});
  auto server = svc.start_server();
  auto worker = svc.start_worker("w1");
  (void)svc.connect().status();  // serving: each message below is answered at once
  raw_peer on_client(svc.endpoint()), on_worker(svc.worker_endpoint());
  for (std::uint32_t lease = 0; lease < 8; ++lease) {  // the server's own lease and the worker's among them
    on_client.send(proto::ready{lease, ::getpid(), "impostor", 1u << 20});
    auto m = on_client.receive(5s);
    ASSERT_TRUE(m) << "no answer on the client endpoint";
    const auto* e = std::get_if<proto::error_reply>(&m->body);
    ASSERT_NE(e, nullptr);
    EXPECT_EQ(e->code, proto::error_code::unknown_message);
    on_worker.send(proto::ready{lease, ::getpid(), "impostor", 1u << 20});
    m = on_worker.receive(5s);
    ASSERT_TRUE(m) << "no answer on the worker endpoint";
    e = std::get_if<proto::error_reply>(&m->body);
    ASSERT_NE(e, nullptr) << "a Ready for lease " << lease << " from a process that does not hold it was accepted";
    EXPECT_EQ(e->code, proto::error_code::bad_request);
  }
  auto c = svc.connect();
  c.submit(job("work", seed()));
  EXPECT_FALSE(proven_public(c, "work").empty());
  for (auto* p : {&on_client, &on_worker})
    while (auto m = p->receive(200ms))
      EXPECT_FALSE(std::holds_alternative<proto::assign>(m->body)) << "an impostor received job inputs";
}

TEST(Security, TheSocketsHaveTheirModesAndGroupsFromTheStart) {
  REQUIRE_SECOND_UID();
  service svc({"2x4096"});
  auto server = svc.start_server({}, {"--client-group", "nogroup"});
  auto c = svc.connect();
  (void)c.status();
  struct stat st {};
  ASSERT_EQ(::stat((svc.dir() / "cuzk.sock").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0660u);
  EXPECT_EQ(st.st_gid, ::getgrnam("nogroup")->gr_gid);
  ASSERT_EQ(::stat((svc.dir() / "worker.sock").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  // nobody reaches the client socket but not the workers'.
  EXPECT_EQ(cli(true, {"status", "--endpoint", svc.endpoint()}).exit, 0);
  const auto r = cli(true, {"status", "--endpoint", svc.worker_endpoint()}, 3);
  EXPECT_NE(r.exit, 0) << r.output;
}

TEST(Security, TheServerReadsOnlyFilesTheClientCouldReadUnderTheAllowedDirectoriesAndQuotesNone) {
  REQUIRE_SECOND_UID();
  service svc({"2x4096"});
  auto server = svc.start_server({}, {"--client-group", "nogroup"});
  std::string secret;
  for (int i = 0; i < 64; ++i) secret += "TOPSECRET-" + std::to_string(i) + "\n";
  write_file(svc.dir() / "secret.zkey", secret, 0600);
  write_file(svc.dir() / "secret.wtns", secret, 0600);
  fs::create_symlink("/etc/shadow", svc.dir() / "link.zkey");
  write_file(svc.dir() / "in.json", inputs_for(circuit, seed()));
  const auto secret_id = shm::content_hash({reinterpret_cast<const std::uint8_t*>(secret.data()), secret.size()});
  struct attempt {
    std::vector<std::string> args;
    const char* says;
  };
  const std::vector<attempt> attempts{
      {{"--zkey", (svc.dir() / "secret.zkey").string(), "--circuit", circuit}, "permission denied"},
      {{"--zkey", "/etc/shadow", "--circuit", circuit}, "outside the directories"},
      {{"--zkey", (svc.dir() / "link.zkey").string(), "--circuit", circuit}, "symbolic link"},
      {{"--zkey", key_for(circuit).path, "--wtns", (svc.dir() / "secret.wtns").string()}, "permission denied"},
  };
  for (const auto& a : attempts) {
    std::vector<std::string> args{"submit", "--endpoint", svc.endpoint()};
    args.insert(args.end(), a.args.begin(), a.args.end());
    if (a.args[2] == "--circuit") args.insert(args.end(), {"--inputs", (svc.dir() / "in.json").string()});
    const auto r = cli(true, args);
    EXPECT_EQ(r.exit, 2) << r.output;
    EXPECT_NE(r.output.find(a.says), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("TOPSECRET"), std::string::npos) << "the file's content was quoted:\n" << r.output;
    EXPECT_EQ(r.output.find("root:"), std::string::npos) << r.output;
  }
  for (const auto& id : shm::list_srs(svc.pool()))
    EXPECT_NE(id, secret_id) << "a refused file was copied into /dev/shm";
}

TEST(Security, AFifoNamedAsAKeyIsRefusedAtOnceAndTheServerKeepsServing) {
  service svc({"2x4096"});
  auto server = svc.start_server();
  const auto fifo = svc.dir() / "fifo.zkey";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  auto c = svc.connect(5000ms);
  (void)svc.connect().status();  // serving: the time below is the Submit's, not the server's start
  auto s = job("fifo", seed());
  s.zkey = fifo.string();
  const auto t0 = std::chrono::steady_clock::now();
  try {
    c.submit(s);
    ADD_FAILURE() << "a FIFO was accepted as a key";
  } catch (const client::server_error& e) {
    EXPECT_NE(std::string(e.what()).find("not a regular file"), std::string::npos) << e.what();
  }
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 3s);
  (void)c.status();
  EXPECT_EQ(server->terminate(10s), 0) << "SIGTERM did not stop the server";
}

TEST(Security, ASecondServerDoesNotTakeOverALiveServersSocket) {
  service svc({"2x4096"}), other({"2x4096"});
  auto server = svc.start_server();
  auto c = svc.connect();
  (void)c.status();
  process second(server_bin(),
                 {"--pool", other.pool(), "--endpoint", svc.endpoint(), "--worker-endpoint",
                  "ipc://" + (other.dir() / "worker.sock").string(), "--backend", "cpu"},
                 other.dir() / "second.log");
  auto st = second.wait_exit(20s);
  ASSERT_TRUE(st.has_value()) << "the second server kept running";
  EXPECT_TRUE(WIFEXITED(*st) && WEXITSTATUS(*st) != 0);
  std::ifstream log(other.dir() / "second.log");
  const std::string text{std::istreambuf_iterator<char>(log), std::istreambuf_iterator<char>()};
  EXPECT_NE(text.find("another process answers"), std::string::npos) << text;
  auto worker = svc.start_worker("w1");
  c.submit(job("still-mine", seed()));
  EXPECT_FALSE(proven_public(c, "still-mine").empty());
}

TEST(Security, FinishedJobsAreEvictedOnlyOnceFetchedAndAFullTableAnswersBusy) {
  REQUIRE_SECOND_UID();
  service svc({"2x4096"}, {"--jobs", "4"});  // a client may hold half: 2
  auto server = svc.start_server({}, {"--client-group", "nogroup"});
  auto worker = svc.start_worker("w1");
  auto c = svc.connect();
  for (int i = 0; i < 2; ++i) c.submit(job("unfetched-" + std::to_string(i), seed() + i));
  write_file(svc.dir() / "in.json", inputs_for(circuit, seed()));
  for (int i = 0; i < 2; ++i) {  // another client fills the rest of the table
    const auto r =
        cli(true, {"submit", "--endpoint", svc.endpoint(), "--zkey", key_for(circuit).path, "--circuit", circuit,
                   "--inputs", (svc.dir() / "in.json").string(), "--job-id", "theirs-" + std::to_string(i)});
    ASSERT_EQ(r.exit, 0) << r.output;
  }
  ASSERT_TRUE(eventually(
      [&] {
        auto st = c.status();
        return std::count_if(st.jobs.begin(), st.jobs.end(),
                             [](const auto& j) { return j.state == proto::job_state::done; }) == 4;
      },
      120s));
  for (int i = 0; i < 2; ++i) {  // this client's limit, and then the full table, answer busy
    try {
      c.submit(job("one-too-many", seed() + 9));
      ADD_FAILURE() << "a finished job that was never fetched was evicted";
    } catch (const client::server_error& e) {
      EXPECT_EQ(e.code(), proto::error_code::busy) << e.what();
    }
  }
  const auto r = cli(true, {"submit", "--endpoint", svc.endpoint(), "--zkey", key_for(circuit).path, "--circuit",
                            circuit, "--inputs", (svc.dir() / "in.json").string(), "--job-id", "theirs-2"});
  EXPECT_NE(r.exit, 0) << r.output;
  EXPECT_NE(r.output.find("busy"), std::string::npos) << r.output;
  EXPECT_EQ(c.status("unfetched-0").state, proto::job_state::done);
  ASSERT_TRUE(std::holds_alternative<proto::proof_reply>(c.fetch("unfetched-1")));
  EXPECT_TRUE(c.submit(job("one-too-many", seed() + 9)).created);  // unfetched-1 made room
  EXPECT_EQ(c.status("unfetched-0").state, proto::job_state::done);
  EXPECT_EQ(c.status("theirs-0").state, proto::job_state::done);
}

TEST(Security, PerClientLimitsOnUnfinishedJobsAndPendingWaitsAnswerBusy) {
  service svc({"2x4096"});
  auto server = svc.start_server({}, {"--max-jobs-per-client", "2", "--max-waits-per-client", "1"});
  auto c = svc.connect();  // no worker: jobs stay queued
  c.submit(job("q0", seed()));
  c.submit(job("q1", seed() + 1));
  try {
    c.submit(job("q2", seed() + 2));
    ADD_FAILURE() << "a third unfinished job was accepted";
  } catch (const client::server_error& e) {
    EXPECT_EQ(e.code(), proto::error_code::busy) << e.what();
  }
  raw_peer a(svc.endpoint()), b(svc.endpoint());
  a.send(proto::wait_request{"q0", 30000}, 1);
  // A connection's requests are taken in order: once the Status after it is answered, a's Wait is pending.
  a.send(proto::status_request{}, 3);
  const auto taken = a.receive(30s);
  ASSERT_TRUE(taken && std::holds_alternative<proto::status_reply>(taken->body))
      << "no Status reply came before the first Wait's";
  b.send(proto::wait_request{"q1", 30000}, 2);
  auto m = b.receive(30s);
  ASSERT_TRUE(m);
  const auto* e = std::get_if<proto::error_reply>(&m->body);
  ASSERT_NE(e, nullptr) << "a second pending wait was accepted";
  EXPECT_EQ(e->code, proto::error_code::busy);
}

TEST(Security, StatusAnswersWithin200msWhileAGibibyteKeyLoadsAndHostileSubmitsArrive) {
  service svc({"2x4096"});
  auto server = svc.start_server();
  const auto big = svc.dir() / "big.zkey";
  random_file(big, 1024, seed());
  const auto fifo = svc.dir() / "fifo.zkey";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  auto c = svc.connect(10000ms);
  (void)c.status();
  std::atomic<bool> done{false};
  std::atomic<int> load_answered{0};
  std::thread loader([&] {
    auto l = svc.connect(120000ms);
    auto s = job("big-key", seed());
    s.zkey = big.string();
    try {
      l.submit(s);
    } catch (const client::server_error&) {
      load_answered = 1;  // not a valid .zkey: refused, after hashing and copying it
    }
  });
  std::thread hostile([&] {
    auto h = svc.connect(10000ms);
    for (int i = 0; !done; ++i) {
      auto s = job("hostile-" + std::to_string(i), seed());
      if (i % 2) {
        s.zkey = fifo.string();
      } else {
        s.work = proto::native_work{"chain:size=2147483647", inputs_for(circuit, seed())};
      }
      try {
        h.submit(s);
      } catch (const std::exception&) {
      }
    }
  });
  int samples = 0;
  const auto until = std::chrono::steady_clock::now() + 30s;
  const auto worst = worst_status(
      c, [&](int n) { return (n < 20 || !load_answered) && std::chrono::steady_clock::now() < until; }, &samples);
  done = true;
  loader.join();
  hostile.join();
  EXPECT_EQ(load_answered.load(), 1) << "the gibibyte key was not refused within 30 s";
  EXPECT_TRUE(shm::list_srs(svc.pool()).size() <= 1) << "the refused gibibyte stayed in /dev/shm";
  EXPECT_LT(worst, 200ms) << "status took " << std::chrono::duration<double, std::milli>(worst).count() << " ms over "
                          << samples << " samples";
  std::printf("status: worst %.1f ms over %d samples during the load\n",
              std::chrono::duration<double, std::milli>(worst).count(), samples);
}

TEST(Security, SubmitWaitExitsZeroOnlyWhenTheProofVerifiesUnderTheClientsOwnKey) {
  service svc({"2x4096"});
  auto server = svc.start_server();
  auto worker = svc.start_worker("w1");
  write_file(svc.dir() / "in.json", inputs_for(circuit, seed()));
  const std::string other = "chain:size=65";
  const auto vk = svc.dir() / "other.vk.json";
  ASSERT_EQ(cli(false, {"export-vk", "--zkey", key_for(other).path, "--vk", vk.string()}).exit, 0);
  auto submit = [&](const std::string& id, std::vector<std::string> extra) {
    std::vector<std::string> args{"submit",
                                  "--endpoint",
                                  svc.endpoint(),
                                  "--zkey",
                                  key_for(circuit).path,
                                  "--circuit",
                                  circuit,
                                  "--inputs",
                                  (svc.dir() / "in.json").string(),
                                  "--job-id",
                                  id,
                                  "--wait",
                                  "--proof",
                                  (svc.dir() / (id + ".proof.json")).string(),
                                  "--public",
                                  (svc.dir() / (id + ".public.json")).string()};
    args.insert(args.end(), extra.begin(), extra.end());
    return cli(false, args);
  };
  const auto good = submit("own-key", {});
  EXPECT_EQ(good.exit, 0) << good.output;
  const auto bad = submit("other-key", {"--vk", vk.string()});
  EXPECT_EQ(bad.exit, 1) << bad.output;
  EXPECT_NE(bad.output.find("does not verify"), std::string::npos) << bad.output;
  EXPECT_FALSE(fs::exists(svc.dir() / "other-key.proof.json"));
}

}  // namespace
}  // namespace cuzk::test
