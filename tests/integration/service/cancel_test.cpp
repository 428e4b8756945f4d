// Cancel (issue 40: DELETE /v1/proofs/{id} rests on it): a queued job fails
// "cancelled by its client" at once, its Wait is answered, and the queue
// goes on with the next job; a finished job is answered as it is; an unknown
// one is UNKNOWN_JOB. `cuzk cancel` prints the status and says which.
#include <gtest/gtest.h>

#include "client/lib/errors.hpp"
#include "harness.hpp"
#include "run.hpp"
#include "seed.hpp"

namespace cuzk::test {
namespace {

using namespace std::chrono_literals;

const std::string circuit = "chain:size=64";

TEST(Cancel, AQueuedJobFailsAtOnceTheQueueGoesOnAndAFinishedJobIsAnsweredAsItIs) {
  service svc({"1x4096"});
  auto server = svc.start_server();
  auto c = svc.connect();
  const auto s = seed();
  ASSERT_TRUE(c.submit(native_submit("j1", circuit, s, "cancel")).created);  // no worker yet: it waits
  const auto st = c.cancel("j1");
  EXPECT_EQ(st.state, proto::job_state::failed);
  EXPECT_EQ(st.error, "cancelled by its client");
  const auto w = c.wait("j1", 10s);
  ASSERT_TRUE(std::holds_alternative<proto::job_status>(w));
  EXPECT_EQ(std::get<proto::job_status>(w).state, proto::job_state::failed);

  auto worker = svc.start_worker("w1");
  ASSERT_TRUE(c.submit(native_submit("j2", circuit, s + 1, "cancel")).created);
  const auto r = c.wait("j2", 120s);
  ASSERT_TRUE(std::holds_alternative<proto::proof_reply>(r)) << server_logs(svc);
  EXPECT_EQ(c.cancel("j2").state, proto::job_state::done);
  EXPECT_TRUE(std::holds_alternative<proto::proof_reply>(c.fetch("j2"))) << "a finished job's proof stays";

  try {
    (void)c.cancel("no-such-job");
    ADD_FAILURE() << "an unknown job was cancelled";
  } catch (const client::server_error& e) {
    EXPECT_EQ(e.code(), proto::error_code::unknown_job) << e.what();
  }

  ASSERT_TRUE(c.submit(native_submit("j3", circuit, s + 2, "cancel")).created);
  const auto cli = run(cli_bin() + " cancel --endpoint " + svc.endpoint() + " --job-id j3");
  // j3 was cancelled (exit 0), or the worker had proven it already (exit 1): either way it said which.
  EXPECT_TRUE((cli.rc == 0 && cli.out.find("cancelled by its client") != std::string::npos) ||
              (cli.rc == 1 && cli.out.find("done") != std::string::npos))
      << cli.rc << "\n"
      << cli.out << cli.err;
  ASSERT_TRUE(c.submit(native_submit("j4", circuit, s + 3, "cancel")).created);
  EXPECT_TRUE(std::holds_alternative<proto::proof_reply>(c.wait("j4", 120s))) << "the queue went on after a cancel";
}

}  // namespace
}  // namespace cuzk::test
