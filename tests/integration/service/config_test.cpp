// The server and a worker configured by one TOML file (issue 12), real
// processes on a real pool: a job is proven; a flag on the command line
// overrides the file; a bad value stops the server with the key and line.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <csignal>
#include <fstream>
#include <iterator>
#include <thread>

#include "harness.hpp"
#include "seed.hpp"

namespace cuzk::test {
namespace {

using namespace std::chrono_literals;

fs::path write_config(const service& svc, const std::string& server_extra) {
  const auto p = svc.dir() / "cuzk.toml";
  std::ofstream(p) << "# cuzk configuration (test)\n"
                   << "[pool]\nname = \"" << svc.pool() << "\"\n\n"
                   << "[server]\nendpoint = \"" << svc.endpoint() << "\"\n"
                   << "worker_endpoint = \"" << svc.worker_endpoint() << "\"\n"
                   << "keys_dirs = [\"" << fs::temp_directory_path().string() << "\"]\n"
                   << server_extra << "\n"
                   << "[worker]\nchecksum = true\nprogress_grace = 10\n";
  return p;
}

TEST(ConfigService, AServerAndAWorkerConfiguredByOneFileProveAndFlagsOverrideIt) {
  service svc({"2x4096"});
  /* the file asks for a GPU; the command line says cpu and wins (CI has no GPU) */
  const auto cfg = write_config(svc, "backend = \"cuda\"\nhung_timeout = 30\n\n[metrics]\naddress = \"127.0.0.1:0\"\n");
  process server(server_bin(), {"--config", cfg.string(), "--backend", "cpu"}, svc.dir() / "server.log");
  process worker(worker_bin(), {"--config", cfg.string(), "--name", "worker@1"}, svc.dir() / "worker.log");
  auto c = svc.connect();
  const std::string circuit = "chain:size=300";
  c.submit(native_submit("configured", circuit, test::seed(), "config_test"));
  auto out = c.wait("configured", 120s);
  const auto* pr = std::get_if<proto::proof_reply>(&out);
  ASSERT_NE(pr, nullptr) << read_all(svc.dir() / "server.log");
  EXPECT_TRUE(verifies(*key_for(circuit).pk, pr->partitions.at(0).proof_json, pr->partitions.at(0).public_json));
  EXPECT_EQ(c.status().hung_timeout_ms, 30000u) << "hung_timeout from the file was not applied";
  const auto log = read_all(svc.dir() / "server.log");
  EXPECT_NE(log.find("with the cpu backend"), std::string::npos);
  for (const char* phase : {"queue", "synth", "ntt", "msm", "prove", "verify"})
    EXPECT_NE(log.find(std::string("partition=0 phase=") + phase + " ms="), std::string::npos) << phase << "\n" << log;
  EXPECT_NE(metrics_port(svc.dir(), 1s), 0) << "[metrics] address from the file was not applied";
  EXPECT_EQ(server.terminate(), 0);
}

/* the keys added after issue 12 reach the server too */
TEST(ConfigService, HoldProvingAndMsmCopiesFromTheFile) {
  service svc({"2x4096"});
  const auto cfg = write_config(svc, "hold_proving = true\nmsm_copies = 0\nmax_preparing = 8\n");
  process server(server_bin(), {"--config", cfg.string(), "--backend", "cpu"}, svc.dir() / "server.log");
  const auto until = std::chrono::steady_clock::now() + 30s;
  while (read_all(svc.dir() / "server.log").find("serving pool") == std::string::npos &&
         std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(20ms);
  EXPECT_NE(read_all(svc.dir() / "server.log").find("proving held (--hold-proving)"), std::string::npos)
      << read_all(svc.dir() / "server.log");
  EXPECT_EQ(server.terminate(), 0);
}

TEST(ConfigService, ABadValueOrUnknownKeyStopsTheServerNamingTheKeyAndLine) {
  service svc({"2x4096"});
  const auto bad = write_config(svc, "backend = \"sometimes\"\n");
  process s1(server_bin(), {"--config", bad.string()}, svc.dir() / "bad.log");
  auto st = s1.wait_exit(30s);
  ASSERT_TRUE(st && WIFEXITED(*st));
  EXPECT_NE(WEXITSTATUS(*st), 0);
  EXPECT_NE(read_all(svc.dir() / "bad.log").find("cuzk.toml:9: key server.backend"), std::string::npos)
      << read_all(svc.dir() / "bad.log");
  const auto unknown = write_config(svc, "max_jobs = 3\n");
  process s2(server_bin(), {"--config", unknown.string()}, svc.dir() / "unknown.log");
  st = s2.wait_exit(30s);
  ASSERT_TRUE(st && WIFEXITED(*st));
  EXPECT_EQ(WEXITSTATUS(*st), 2);
  EXPECT_NE(read_all(svc.dir() / "unknown.log").find("cuzk.toml:9: unknown key server.max_jobs"), std::string::npos)
      << read_all(svc.dir() / "unknown.log");
}

/* cuzk status --watch redraws the tables in place until it is stopped. */
TEST(ConfigService, StatusWatchRedrawsInPlace) {
  service svc({"2x4096"});
  auto server = svc.start_server();
  (void)svc.connect().status();  // serving before the watch starts
  const auto out = svc.dir() / "watch.txt";
  auto redraws = [&] {
    const std::string text = read_all(out);
    std::size_t n = 0;
    for (auto i = text.find("\033[H\033[2J"); i != std::string::npos; i = text.find("\033[H\033[2J", i + 1)) ++n;
    return n;
  };
  process watch(cli_bin(), {"status", "--watch", "0.2", "--endpoint", svc.endpoint()}, out);
  const bool redrawn = eventually([&] { return redraws() >= 3; }, 10s);  // 0.2 s apart, on a busy machine too
  ::kill(watch.pid(), SIGINT);                                           // as an operator stops it
  EXPECT_TRUE(watch.wait_exit(30s).has_value()) << "cuzk status --watch did not stop on SIGINT";
  const std::string text = read_all(out);
  EXPECT_TRUE(redrawn) << redraws() << " redraws\n" << text;
  EXPECT_NE(text.find("SLOTS (2)"), std::string::npos) << text;
  EXPECT_EQ(server->terminate(), 0);
}

}  // namespace
}  // namespace cuzk::test
