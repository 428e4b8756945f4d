// host_copy (issue 24 item 2), real processes on a real pool. Built with both
// backends: with --backend cuda (cuzk-gpu-service-test, label gpu) a dropped
// key's points leave its SRS region once the GPU holds them, and a server
// killed with FILLED slots comes back, reads the points from the key's file
// and proves those slots without a new synthesis; with --backend cpu
// (service_device_fault_test, label service) the same configuration keeps the
// host copy, since the CPU proves from it, and says so.
#include <gtest/gtest.h>
#include <signal.h>

#include <nlohmann/json.hpp>

#include "harness.hpp"
#include "http_get.hpp"
#include "io/zkey.hpp"
#include "seed.hpp"
#include "shm/srs_region.hpp"
#ifdef CUZK_TEST_CUDA
#include "gpu_test.hpp"
#endif

namespace cuzk::test {
namespace {

using namespace std::chrono_literals;

#ifdef CUZK_TEST_CUDA
constexpr bool on_gpu = true;
const std::string circuit = "chain:size=200000";
const std::vector<std::string> slots = {"4x262144"};
#else
constexpr bool on_gpu = false;
const std::string circuit = "chain:size=3000";
const std::vector<std::string> slots = {"4x4096"};
#endif

double metric(const service& svc, const std::string& series) {
  const auto text = "\n" + http_request(metrics_port(svc.dir()), "/metrics").body;
  const auto at = text.find("\n" + series + " ");
  return at == std::string::npos ? -1 : std::stod(text.substr(at + series.size() + 2));
}

std::uint32_t syntheses(client::connection& c, const std::string& id) {
  return c.status(id).partitions.at(0).syntheses;
}

bool synthesized(client::connection& c, const std::string& id) {
  const auto st = c.status(id);
  return !st.partitions.empty() && st.partitions[0].state == proto::partition_state::synthesized;
}

TEST(HostCopy, ADroppedKeyLeavesHostMemoryAndARestartProvesItsFilledSlotsFromTheFile) {
#ifdef CUZK_TEST_CUDA
  CUZK_REQUIRE_GPU();
#endif
  const auto& key = key_for(circuit);
  const auto shape = io::read_zkey_shape_file(key.path);
  std::uint64_t points = 0;
  for (const auto& [off, len] : shape.points) points += len;
  service svc(slots);
  svc.backend = on_gpu ? "cuda" : "cpu";
  const std::vector<std::string> args = {"--key", key.path, "--host-copy", "drop", "--metrics", "127.0.0.1:0"};
  auto held = args;
  held.push_back("--hold-proving");
  auto server = svc.start_server({}, held);
  auto worker = svc.start_worker("w1");
  auto c = svc.connect();
  (void)c.status();  // serving, its key loaded: cuzk status below gives a starting server only 10 s

  const auto st = nlohmann::json::parse(svc.cli_status_json());
  ASSERT_EQ(st["keys"].size(), 1u) << st.dump();
  const std::string key_id = st["keys"][0]["key_id"];
  auto region = shm::srs_region::open(svc.pool(), key_id);
  ASSERT_TRUE(region);
  const auto logs = server_logs(svc);
  if (on_gpu) {
    EXPECT_EQ(st["keys"][0]["host_copy"], "drop");
    EXPECT_EQ(region->released_bytes(), points) << "the points are still in host memory";
    EXPECT_GT(st["keys"][0]["device_bytes"].get<std::uint64_t>(), points);
    EXPECT_NE(logs.find("points left host memory"), std::string::npos) << logs;
  } else {
    EXPECT_EQ(st["keys"][0]["host_copy"], "keep");
    EXPECT_EQ(region->released_bytes(), 0u);
    EXPECT_NE(logs.find("it keeps its host copy"), std::string::npos) << logs;
  }
  const auto host = st["keys"][0]["host_bytes"].get<std::uint64_t>();
  EXPECT_EQ(host, shm::srs_region_bytes(region->bytes().size()) - region->released_bytes());
  EXPECT_EQ(metric(svc, "cuzk_key_host_bytes{key=\"" + key_id + "\",host_copy=\"" +
                            std::string(on_gpu ? "drop" : "keep") + "\"}"),
            double(host));

  // three jobs synthesized and held FILLED, then the server dies
  std::vector<std::string> ids;
  for (int i = 0; i < 3; ++i) {
    ids.push_back("hc-" + std::to_string(i));
    auto s = native_submit(ids.back(), circuit, seed() + std::uint64_t(i), "host-copy");
    s.zkey = key.path;
    ASSERT_TRUE(c.submit(s).created);
  }
  ASSERT_TRUE(eventually(
      [&] { return std::all_of(ids.begin(), ids.end(), [&](const std::string& id) { return synthesized(c, id); }); },
      120s))
      << server_logs(svc);
  server->kill9();

  server = svc.start_server({}, args);
  auto c2 = svc.connect();
  for (const auto& id : ids) {
    const auto out = c2.wait(id, 180s);
    const auto* pr = std::get_if<proto::proof_reply>(&out);
    ASSERT_NE(pr, nullptr) << id << "\n" << server_logs(svc);
    EXPECT_TRUE(verifies(*key.pk, pr->partitions.at(0).proof_json, pr->partitions.at(0).public_json)) << id;
    EXPECT_EQ(syntheses(c2, id), 1u) << id << " was synthesized again";
  }
  if (on_gpu) {
    EXPECT_NE(server_logs(svc).find("read from its file"), std::string::npos) << server_logs(svc);
    EXPECT_EQ(shm::srs_region::open(svc.pool(), key_id)->released_bytes(), points);
  }
  EXPECT_EQ(server->terminate(), 0);
}

}  // namespace
}  // namespace cuzk::test
