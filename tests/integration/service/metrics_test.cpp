// The metrics endpoint of a real cuzk-gpu-server (issue 12): after one job,
// /metrics counts the proof and its phases and the worker; /healthz and
// /readyz answer 200, an unknown path 404; a port in use stops the server at start.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <fstream>
#include <iterator>

#include "harness.hpp"
#include "http_get.hpp"
#include "seed.hpp"

namespace cuzk::test {
namespace {

using namespace std::chrono_literals;

std::vector<std::string> server_args(const service& svc, const std::string& metrics) {
  return {"--pool",
          svc.pool(),
          "--endpoint",
          svc.endpoint(),
          "--worker-endpoint",
          svc.worker_endpoint(),
          "--backend",
          "cpu",
          "--keys-dir",
          fs::temp_directory_path().string(),
          "--metrics",
          metrics};
}

/* The value of one sample line ("name{labels} value"), or NaN when absent. */
double sample(const std::string& text, const std::string& series) {
  const auto at = text.find("\n" + series + " ");
  if (at == std::string::npos) return std::nan("");
  return std::stod(text.substr(at + series.size() + 2));
}

TEST(MetricsService, AfterOneJobMetricsCountTheProofAndHealthAndReadinessAnswer) {
  service svc({"2x4096"});
  process server(server_bin(), server_args(svc, "127.0.0.1:0"), svc.dir() / "server.log");
  const auto port = metrics_port(svc.dir());
  ASSERT_NE(port, 0) << read_all(svc.dir() / "server.log");
  auto worker = svc.start_worker("worker@1");
  auto c = svc.connect();
  const std::string circuit = "chain:size=300";
  c.submit(native_submit("measured", circuit, test::seed(), "metrics_test"));
  auto out = c.wait("measured", 120s);
  ASSERT_NE(std::get_if<proto::proof_reply>(&out), nullptr) << read_all(svc.dir() / "server.log");

  const auto m = http_request(port, "/metrics");
  EXPECT_EQ(m.status, 200u);
  EXPECT_EQ(m.content_type.rfind("text/plain; version=0.0.4", 0), 0u) << m.content_type;
  const auto& t = m.body;
  EXPECT_NE(t.find("# TYPE cuzk_proofs_completed_total counter"), std::string::npos) << t;
  /* GPU series have a family and no sample on the CPU backend */
  EXPECT_NE(t.find("# TYPE cuzk_gpu_busy_seconds_total counter"), std::string::npos) << t;
  EXPECT_EQ(t.find("cuzk_gpu_busy_seconds_total{"), std::string::npos) << t;
  EXPECT_EQ(sample(t, "cuzk_proofs_completed_total{curve=\"bls12-381\"}"), 1) << t;
  EXPECT_EQ(sample(t, "cuzk_proofs_completed_total{curve=\"bn254\"}"), 0) << t;
  EXPECT_EQ(sample(t, "cuzk_proofs_failed_total"), 0) << t;
  EXPECT_EQ(sample(t, "cuzk_workers"), 1) << t;
  EXPECT_EQ(sample(t, "cuzk_jobs{state=\"done\"}"), 1) << t;
  EXPECT_EQ(sample(t, "cuzk_queue_depth{priority=\"normal\"}"), 0) << t;
  EXPECT_EQ(sample(t, "cuzk_slots{state=\"free\",class=\"0\"}"), 2) << t;
  EXPECT_EQ(sample(t, "cuzk_recovered_slots_total"), 0) << t;
  EXPECT_EQ(sample(t, "cuzk_h2d_bytes_total"), 0) << "the CPU backend copies nothing to a GPU\n" << t;
  const std::string bls = "{curve=\"bls12-381\"", bn = "{curve=\"bn254\"";
  EXPECT_EQ(sample(t, "cuzk_proof_duration_seconds_count" + bls + "}"), 1) << t;
  EXPECT_EQ(sample(t, "cuzk_proof_duration_seconds_count" + bn + "}"), 0) << t;
  EXPECT_EQ(sample(t, "cuzk_proof_duration_seconds_bucket" + bls + ",le=\"+Inf\"}"), 1) << t;
  EXPECT_GT(sample(t, "cuzk_proof_duration_seconds_sum" + bls + "}"), 0) << t;
  for (const char* phase : {"queue", "synth", "ntt", "msm", "prove", "verify"})
    EXPECT_EQ(sample(t, "cuzk_phase_duration_seconds_count" + bls + ",phase=\"" + phase + "\"}"), 1) << phase << "\n"
                                                                                                     << t;
  EXPECT_EQ(sample(t, "cuzk_phase_duration_seconds_count" + bls + ",phase=\"h2d\"}"), 0) << t;
  EXPECT_GE(sample(t, "cuzk_uptime_seconds"), 0) << t;
  EXPECT_EQ(sample(t, "cuzk_protocol_errors_total{kind=\"malformed\"}"), 0) << t;

  const auto h = http_request(port, "/healthz");
  EXPECT_EQ(h.status, 200u);
  EXPECT_EQ(h.body, "ok\n");
  EXPECT_EQ(http_request(port, "/readyz").status, 200u);
  EXPECT_EQ(http_request(port, "/no-such-path").status, 404u);
  EXPECT_EQ(http_request(port, "/metrics", boost::beast::http::verb::delete_).status, 405u);
  EXPECT_EQ(server.terminate(), 0);
}

TEST(MetricsService, AMetricsPortInUseStopsTheServerAtStartWithAClearError) {
  service svc({"2x4096"});
  boost::asio::io_context io;
  boost::asio::ip::tcp::acceptor taken(io, {boost::asio::ip::make_address("127.0.0.1"), 0});
  const auto addr = "127.0.0.1:" + std::to_string(taken.local_endpoint().port());
  process server(server_bin(), server_args(svc, addr), svc.dir() / "server.log");
  const auto st = server.wait_exit(30s);
  ASSERT_TRUE(st && WIFEXITED(*st)) << read_all(svc.dir() / "server.log");
  EXPECT_EQ(WEXITSTATUS(*st), 1);
  EXPECT_NE(read_all(svc.dir() / "server.log").find("cannot serve metrics on " + addr), std::string::npos)
      << read_all(svc.dir() / "server.log");
}

}  // namespace
}  // namespace cuzk::test
