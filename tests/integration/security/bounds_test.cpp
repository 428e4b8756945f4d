// Options an operator (or a configuration file) gets wrong (issue 19): an
// absurd count is refused at once naming the option and its range, before
// any thread or file is made; a client group that could limit nobody (an
// abstract ipc endpoint has no socket file) is refused at start.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>

#include "harness.hpp"
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
  timed_result t{run("timeout 10 " + cmd), 0};
  t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return t;
}

std::size_t lines(const std::string& s) { return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n')); }

std::string server_args(const service& svc) {
  return " --pool " + svc.pool() + " --endpoint " + svc.endpoint() + " --worker-endpoint " + svc.worker_endpoint() +
         " --backend cpu";
}

TEST(Bounds, AnAbsurdPrepareThreadsIsRefusedAtOnceNamingTheOptionFromTheCommandLineOrTheFile) {
  service svc({"1x4096"});  // a real pool: the server would otherwise start
  auto t = timed(server_bin() + server_args(svc) + " --prepare-threads 100000000");
  EXPECT_NE(t.r.rc, 0) << t.output();
  EXPECT_LT(t.seconds, 1.0) << t.output();
  EXPECT_NE(t.output().find("--prepare-threads: 100000000 is not in the allowed range 1 to 256"), std::string::npos)
      << t.output();
  EXPECT_EQ(lines(t.output()), 1u) << "the server did more than refuse: " << t.output();

  const auto cfg = svc.dir() / "cuzk.toml";
  std::ofstream(cfg) << "[pool]\nname = \"" << svc.pool() << "\"\n\n[server]\nendpoint = \"" << svc.endpoint()
                     << "\"\nworker_endpoint = \"" << svc.worker_endpoint() << "\"\nbackend = \"cpu\"\n"
                     << "prepare_threads = 100000000\n";
  t = timed(server_bin() + " --config " + cfg.string());
  EXPECT_NE(t.r.rc, 0) << t.output();
  EXPECT_LT(t.seconds, 1.0) << t.output();
  EXPECT_NE(t.output().find("cuzk.toml:8: key server.prepare_threads: "
                            "--prepare-threads: 100000000 is not in the allowed range 1 to 256"),
            std::string::npos)
      << t.output();
  EXPECT_EQ(lines(t.output()), 1u) << t.output();
}

TEST(Bounds, EveryProcessRefusesAbsurdCountsNamingTheOption) {
  service svc({"1x4096"});
  struct refused {
    std::string cmd, option;
  };
  const std::vector<refused> cases = {
      {server_bin() + server_args(svc) + " --threads 100000000", "--threads"},
      {server_bin() + server_args(svc) + " --max-jobs-per-client 4000000000", "--max-jobs-per-client"},
      {server_bin() + server_args(svc) + " --max-waits-per-client 0", "--max-waits-per-client"},
      {server_bin() + server_args(svc) + " --max-synth-crashes 0", "--max-synth-crashes"},
      {server_bin() + server_args(svc) + " --hung-timeout 1e12", "--hung-timeout"},
      {server_bin() + server_args(svc) + " --retention 1e15", "--retention"},
      {server_bin() + server_args(svc) + " --gpus 0,100000", "--gpus"},
      {worker_bin() + " --pool " + svc.pool() + " --endpoint " + svc.worker_endpoint() + " --stop-timeout 1e12",
       "--stop-timeout"},
      {worker_bin() + " --pool " + svc.pool() + " --endpoint " + svc.worker_endpoint() + " --synth-deadline 1e12",
       "--synth-deadline"},
      {shm_bin() + " create --name " + svc.pool() + "-x --slots 1x4096 --threads 100000000", "--threads"},
      {shm_bin() + " create --name " + svc.pool() + "-x --slots 1x4096 --jobs 100000000000", "--jobs"},
      {shm_bin() + " create --name " + svc.pool() + "-x --slots 1x4096 --leases 100000", "--leases"},
  };
  for (const auto& c : cases) {
    const auto t = timed(c.cmd);
    EXPECT_NE(t.r.rc, 0) << c.cmd << "\n" << t.output();
    EXPECT_LT(t.seconds, 1.0) << c.cmd;
    EXPECT_NE(t.output().find(c.option + ": "), std::string::npos) << c.cmd << "\n" << t.output();
    EXPECT_NE(t.output().find("is not in the allowed range"), std::string::npos) << c.cmd << "\n" << t.output();
  }
  EXPECT_FALSE(fs::exists("/dev/shm/" + svc.pool() + "-x")) << "cuzk-shm created a pool with an absurd count";
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
