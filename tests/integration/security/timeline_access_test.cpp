// The GPU timeline (/timeline, /trace.json) shows every client's jobs, so the
// metrics endpoint serves it only to an operator's uid, which the kernel's
// socket table names for a loopback peer (issue 37); /metrics, /healthz and
// /readyz stay open to any local user (Prometheus).
#include <gtest/gtest.h>

#include "harness.hpp"
#include "hostile.hpp"
#include "http_get.hpp"
#include "run.hpp"
#include "seed.hpp"

namespace cuzk::test {
namespace {

using namespace std::chrono_literals;

const std::string circuit = "chain:size=64";

TEST(TimelineAccess, NobodyGets403ForTheTimelineAndTraceWhileTheOperatorGetsThem) {
  REQUIRE_SECOND_UID();
  service svc({"2x4096"});
  auto server = svc.start_server({}, {"--client-group", "nogroup", "--metrics", "127.0.0.1:0"});
  auto worker = svc.start_worker("w1");
  auto c = svc.connect();
  ASSERT_TRUE(c.submit(native_submit("seen", circuit, seed(), "root")).created);
  ASSERT_TRUE(std::holds_alternative<proto::proof_reply>(c.wait("seen", 120s)));
  EXPECT_NE(server_logs(svc).find("proven job=seen partition=0 "), std::string::npos)
      << "the log names the job by its id\n"
      << server_logs(svc);
  const auto port = metrics_port(svc.dir());
  // As nobody: each path's status, as the exit code's digits (403 → 4, 200 → 2).
  const auto status_as_nobody = [&](const std::string& path) {
    const pid_t child = fork_as_nobody([&] {
      const auto r = http_request(port, path);
      if (r.status == 403 && r.body.find("only to an operator") == std::string::npos) return 1;
      return static_cast<int>(r.status / 100);
    });
    return wait_child(child, 30s);
  };
  EXPECT_EQ(status_as_nobody("/timeline"), 4);
  EXPECT_EQ(status_as_nobody("/trace.json?since=600"), 4);
  EXPECT_EQ(status_as_nobody("/metrics"), 2);
  EXPECT_EQ(status_as_nobody("/healthz"), 2);
  EXPECT_EQ(status_as_nobody("/readyz"), 2);

  const auto mine = http_request(port, "/trace.json?since=600");
  EXPECT_EQ(mine.status, 200u);
  EXPECT_NE(mine.body.find("traceEvents"), std::string::npos);
  EXPECT_EQ(http_request(port, "/timeline").status, 200u);
  const std::string address = "127.0.0.1:" + std::to_string(port);
  const auto root = cli(false, {"trace", "--metrics", address});
  EXPECT_EQ(root.exit, 0) << root.output;
  EXPECT_NE(root.output.find("traceEvents"), std::string::npos);
  const auto nobody = cli(true, {"trace", "--metrics", address});
  EXPECT_NE(nobody.exit, 0) << nobody.output;
  EXPECT_NE(nobody.output.find("answered 403"), std::string::npos) << nobody.output;
  EXPECT_EQ(server->terminate(), 0);
}

}  // namespace
}  // namespace cuzk::test
