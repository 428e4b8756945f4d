// cuzk::client::connection against a fake server on a real ROUTER socket.
#include <chrono>
#include <thread>

#include <gtest/gtest.h>

#include "../net/temp_dir.hpp"
#include "client/lib/connection.hpp"
#include "fake_server.hpp"

namespace cuzk::client {
namespace {

using namespace std::chrono_literals;

proto::submit chain_job(const std::string& id, std::uint32_t partitions = 1) {
  return {id,
          "tests",
          proto::priority::normal,
          partitions,
          "/keys/chain.zkey",
          proto::native_work{"chain:size=4", "{\"x\":\"3\"}"},
          std::nullopt};
}

struct ClientConnection : testing::Test {
  test::temp_dir dir;
  std::string endpoint = dir.ipc("cuzk.sock");
  // Short wait slices; a reply may take its time on a busy machine (the tests of timeouts give their own).
  options quick{10s, 2, 100ms, std::nullopt, 8};
};

TEST_F(ClientConnection, SubmitIsAcceptedAndCreatesTheJob) {
  test::fake_server server(endpoint);
  connection c(endpoint, quick);
  auto a = c.submit(chain_job("job-1"));
  EXPECT_EQ(a.job_id, "job-1");
  EXPECT_TRUE(a.created);
  EXPECT_EQ(a.state, proto::job_state::queued);
  EXPECT_EQ(server.last_submit(), chain_job("job-1"));
}

TEST_F(ClientConnection, ResubmittingAJobIdIsAcceptedWithoutCreatingItAgain) {
  test::fake_server server(endpoint);
  connection c(endpoint, quick);
  EXPECT_TRUE(c.submit(chain_job("job-1")).created);
  EXPECT_FALSE(c.submit(chain_job("job-1")).created);
}

TEST_F(ClientConnection, AnErrorReplySurfacesAsServerErrorWithItsCodeAndMessage) {
  test::fake_server server(endpoint);
  connection c(endpoint, quick);
  try {
    (void)c.status("nobody");
    FAIL() << "no exception";
  } catch (const server_error& e) {
    EXPECT_EQ(e.code(), proto::error_code::unknown_job);
    EXPECT_EQ(e.message(), "no job nobody");
  }
}

TEST_F(ClientConnection, StatusOfTheServiceListsJobsSlotsAndWorkers) {
  test::fake_server server(endpoint);
  connection c(endpoint, quick);
  (void)c.submit(chain_job("job-1", 3));
  auto r = c.status();
  ASSERT_EQ(r.jobs.size(), 1u);
  EXPECT_EQ(r.jobs[0].partitions.size(), 3u);
  EXPECT_EQ(r.slots.size(), 2u);
  ASSERT_EQ(r.workers.size(), 1u);
  EXPECT_EQ(r.workers[0].name, "worker@1");
  EXPECT_EQ(c.status("job-1").state, proto::job_state::queued);
}

TEST_F(ClientConnection, FetchOfAnUnfinishedJobIsItsStatusAndOfAFinishedOneItsProofs) {
  test::fake_server server(endpoint);
  connection c(endpoint, quick);
  (void)c.submit(chain_job("job-1", 2));
  EXPECT_TRUE(std::holds_alternative<proto::job_status>(c.fetch("job-1")));
  server.complete("job-1");
  auto r = c.fetch("job-1");
  ASSERT_TRUE(std::holds_alternative<proto::proof_reply>(r));
  EXPECT_EQ(std::get<proto::proof_reply>(r).partitions.size(), 2u);
}

TEST_F(ClientConnection, WaitReturnsTheProofsOnceTheJobIsDoneAskingInSlices) {
  test::fake_server server(endpoint);
  connection c(endpoint, quick);
  (void)c.submit(chain_job("job-1"));
  std::thread later([&] {  // done once the client asked three times, or after 2 s (when it does not ask in slices)
    const auto until = std::chrono::steady_clock::now() + 2s;
    while (server.requests("wait") < 3 && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(10ms);
    server.complete("job-1");
  });
  auto r = c.wait("job-1", 10s);
  later.join();
  ASSERT_TRUE(std::holds_alternative<proto::proof_reply>(r));
  EXPECT_EQ(std::get<proto::proof_reply>(r).partitions[0].public_json, "[\"100\"]");
  EXPECT_GE(server.requests("wait"), 3) << "100 ms slices: three within 2 s";
}

TEST_F(ClientConnection, WaitReturnsTheStatusWhenTheTimeoutPassesFirst) {
  test::fake_server server(endpoint);
  connection c(endpoint, quick);
  (void)c.submit(chain_job("job-1"));
  const auto t0 = std::chrono::steady_clock::now();
  auto r = c.wait("job-1", 250ms);
  EXPECT_GE(std::chrono::steady_clock::now() - t0, 240ms);
  ASSERT_TRUE(std::holds_alternative<proto::job_status>(r));
  EXPECT_EQ(std::get<proto::job_status>(r).state, proto::job_state::queued);
}

TEST_F(ClientConnection, WaitReturnsAFailedJobsStatusWithItsError) {
  test::fake_server server(endpoint);
  connection c(endpoint, quick);
  (void)c.submit(chain_job("job-1"));
  server.fail("job-1", "constraint 7 is not satisfied");
  auto r = c.wait("job-1", 10s);
  ASSERT_TRUE(std::holds_alternative<proto::job_status>(r));
  EXPECT_EQ(std::get<proto::job_status>(r).error, "constraint 7 is not satisfied");
}

TEST_F(ClientConnection, ARequestTheServerIgnoresIsSentAgainOnAFreshSocket) {
  test::fake_server server(endpoint);
  connection c(endpoint, options{2s, 2, 100ms, std::nullopt, 8});  // the ignored attempt costs its timeout
  server.ignore_next(1);
  EXPECT_TRUE(c.submit(chain_job("job-1")).created);
  EXPECT_EQ(server.requests("submit"), 2);
}

TEST_F(ClientConnection, RepliesToOtherRequestIdsAreDropped) {
  test::fake_server server(endpoint);
  server.send_stale_replies(true);
  connection c(endpoint, quick);
  EXPECT_EQ(c.submit(chain_job("job-1")).job_id, "job-1");
}

TEST_F(ClientConnection, NoServerIsUnreachableAfterEveryAttemptTimesOut) {
  connection c(endpoint, options{100ms, 2, 100ms, std::nullopt, 8});
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_THROW((void)c.status(), unreachable);
  EXPECT_GE(std::chrono::steady_clock::now() - t0, 190ms);
}

TEST_F(ClientConnection, AServerThatStartsLateIsReachedByALaterAttempt) {
  connection c(endpoint, options{300ms, 5, 100ms, std::nullopt, 8});
  std::unique_ptr<test::fake_server> server;
  std::thread later([&] {
    std::this_thread::sleep_for(400ms);
    server = std::make_unique<test::fake_server>(endpoint);
  });
  auto a = c.submit(chain_job("job-1"));
  later.join();
  EXPECT_TRUE(a.created);
}

}  // namespace
}  // namespace cuzk::client
