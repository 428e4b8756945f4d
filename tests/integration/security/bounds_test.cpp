// Options an operator (or a configuration file) gets wrong (issue 19): an
// absurd count is refused at once naming the option and its range, before
// any thread or file is made; a client group that could limit nobody (an
// abstract ipc endpoint has no socket file) is refused at start.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>

#include "harness.hpp"
#include "hostile.hpp"
#include "run.hpp"

namespace cuzk::test {
namespace {

struct timed_result {
  run_result r;
  double seconds = 0;
  std::string output() const { return r.out + r.err; }
};

/* cmd, killed after 10 s (the old server served on), and how long it took */
timed_result timed(const std::string& cmd) {
  const auto t0 = std::chrono::steady_clock::now();
  timed_result t{run("timeout -s KILL 10 " + cmd), 0};
  t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return t;
}

/* cmd as uid nobody with at most 256 tasks: a process that tried the absurd
   count (the old code did, until every process of the host got EAGAIN) is
   stopped by its own limit, not the machine's (root's is not enforced). */
timed_result capped(const std::string& cmd) { return timed(as_nobody("prlimit --nproc=256 " + cmd)); }

std::size_t lines(const std::string& s) { return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')); }

const std::string server_args = " --pool cuzk-bounds-test --endpoint ipc:///nonexistent/c.sock --backend cpu";

TEST(Bounds, AnAbsurdPrepareThreadsIsRefusedAtOnceNamingTheOptionFromTheCommandLineOrTheFile) {
  REQUIRE_SECOND_UID();
  auto t = capped(server_bin() + server_args + " --prepare-threads 100000000");
  EXPECT_NE(t.r.rc, 0) << t.output();
  EXPECT_LT(t.seconds, 1.0) << t.output();
  EXPECT_NE(t.output().find("--prepare-threads: 100000000 is not in the allowed range 1 to 256"), std::string::npos)
      << t.output();
  EXPECT_EQ(lines(t.output()), 1u) << "the server did more than refuse: " << t.output();

  const temp_dir dir;
  const auto cfg = dir.path / "cuzk.toml";
  std::ofstream(cfg) << "[pool]\nname = \"cuzk-bounds-test\"\n\n[server]\nendpoint = \"ipc:///nonexistent/c.sock\"\n"
                     << "backend = \"cpu\"\n\n"
                     << "prepare_threads = 100000000\n";
  t = capped(server_bin() + " --config " + cfg.string());
  EXPECT_NE(t.r.rc, 0) << t.output();
  EXPECT_LT(t.seconds, 1.0) << t.output();
  EXPECT_NE(t.output().find("cuzk.toml:8: key server.prepare_threads: "
                            "--prepare-threads: 100000000 is not in the allowed range 1 to 256"),
            std::string::npos)
      << t.output();
  EXPECT_EQ(lines(t.output()), 1u) << t.output();
}

TEST(Bounds, EveryProcessRefusesAbsurdCountsNamingTheOption) {
  REQUIRE_SECOND_UID();
  const std::string worker = worker_bin() + " --pool cuzk-bounds-test --endpoint ipc:///nonexistent/w.sock";
  const std::string pool = "cuzk-bounds-test-" + std::to_string(::getpid());
  const std::string create = shm_bin() + " create --name " + pool + " --slots 1x4096";
  struct refused {
    std::string cmd, option;
  };
  const std::vector<refused> cases = {
      {server_bin() + server_args + " --threads 100000000", "--threads"},
      {server_bin() + server_args + " --max-jobs-per-client 4000000000", "--max-jobs-per-client"},
      {server_bin() + server_args + " --max-waits-per-client 0", "--max-waits-per-client"},
      {server_bin() + server_args + " --max-synth-crashes 0", "--max-synth-crashes"},
      {server_bin() + server_args + " --hung-timeout 1e12", "--hung-timeout"},
      {server_bin() + server_args + " --retention 1e15", "--retention"},
      {server_bin() + server_args + " --gpus 0,100000", "--gpus"},
      {worker + " --stop-timeout 1e12", "--stop-timeout"},
      {worker + " --synth-deadline 1e12", "--synth-deadline"},
      {create + " --threads 100000000", "--threads"},
      {create + " --jobs 100000000000", "--jobs"},
      {create + " --leases 100000", "--leases"},
  };
  for (const auto& c : cases) {
    const auto t = capped(c.cmd);
    EXPECT_NE(t.r.rc, 0) << c.cmd << "\n" << t.output();
    EXPECT_LT(t.seconds, 1.0) << c.cmd;
    EXPECT_NE(t.output().find(c.option + ": "), std::string::npos) << c.cmd << "\n" << t.output();
    EXPECT_NE(t.output().find("is not in the allowed range"), std::string::npos) << c.cmd << "\n" << t.output();
  }
  EXPECT_FALSE(fs::exists("/dev/shm/" + pool)) << "cuzk-shm created a pool with an absurd count";
  (void)run(shm_bin() + " destroy --force --name " + pool + " 2>/dev/null");
}

TEST(Bounds, AClientGroupOnAnAbstractEndpointIsRefusedAtStart) {
  service svc({"1x4096"});
  const std::string abstract = "ipc://@" + svc.pool() + ".abstract";
  auto t = timed(server_bin() + " --pool " + svc.pool() + " --endpoint " + abstract + " --worker-endpoint " +
                 svc.worker_endpoint() + " --backend cpu --client-group nogroup");
  EXPECT_EQ(t.r.rc, 1) << t.output();
  EXPECT_LT(t.seconds, 1.0) << t.output();
  EXPECT_NE(t.output().find("--client-group nogroup cannot limit who connects to --endpoint " + abstract +
                            ": it has no socket file whose group could be set"),
            std::string::npos)
      << t.output();
  // the workers' endpoint alike
  t = timed(server_bin() + " --pool " + svc.pool() + " --endpoint " + svc.endpoint() + " --worker-endpoint " +
            abstract + " --backend cpu --worker-group nogroup");
  EXPECT_EQ(t.r.rc, 1) << t.output();
  EXPECT_NE(t.output().find("--worker-group nogroup cannot limit who connects to --worker-endpoint " + abstract),
            std::string::npos)
      << t.output();
}

}  // namespace
}  // namespace cuzk::test
