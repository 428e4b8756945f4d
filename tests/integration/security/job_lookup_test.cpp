// Job ids are per uid (DESIGN §9), so two users may both have job X. An
// operator who sees every job gets its own X, the only X there is, or is
// told whose X exist and names one with --uid; a client only ever its own.
#include <gtest/gtest.h>
#include <pwd.h>
#include <sys/stat.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "client/lib/errors.hpp"
#include "harness.hpp"
#include "hostile.hpp"
#include "run.hpp"
#include "seed.hpp"

namespace cuzk::test {
namespace {

const std::string circuit = "chain:size=64";

std::string third_uid_unavailable() {
  if (auto why = second_uid_unavailable(); !why.empty()) return why;
  if (!::getpwnam("daemon")) return "no user daemon";
  return {};
}

uid_t uid_of(const char* user) { return ::getpwnam(user)->pw_uid; }

/* The number of partitions of the job `status --json` shows: tells whose job it is. */
std::size_t partitions_of(const cli_result& r) {
  const auto j = nlohmann::json::parse(r.output, nullptr, false);
  return j.is_discarded() || !j.contains("partitions") ? 0 : j["partitions"].size();
}

TEST(JobIds, AnOperatorIsToldWhoseJobsShareAnIdAndNamesTheOwnerWithUid) {
  if (const auto why = third_uid_unavailable(); !why.empty()) GTEST_SKIP() << why;
  service svc({"4x4096"});
  auto server = svc.start_server({}, {"--client-group", "nogroup"});  // no worker: the jobs stay queued
  const auto inputs = svc.dir() / "in.json";
  std::ofstream(inputs) << inputs_for(circuit, seed());
  ::chmod(inputs.c_str(), 0644);
  auto submit = [&](const std::string& user, int partitions) {
    const auto r =
        cli_as(user, {"submit", "--endpoint", svc.endpoint(), "--zkey", key_for(circuit).path, "--circuit", circuit,
                      "--inputs", inputs.string(), "--job-id", "same-id", "--partitions", std::to_string(partitions)});
    EXPECT_EQ(r.exit, 0) << user << ": " << r.output;
  };
  auto status = [&](const std::string& user, std::vector<std::string> extra) {
    std::vector<std::string> args{"status", "--endpoint", svc.endpoint(), "--json", "--job-id", "same-id"};
    args.insert(args.end(), extra.begin(), extra.end());
    return cli_as(user, args);
  };
  submit("nobody", 1);  // whose job it is shows in its partition count
  submit("daemon", 2);

  const auto which = status("", {});
  EXPECT_EQ(which.exit, 2) << "an operator got one of two users' jobs:\n" << which.output;
  const auto both = std::to_string(std::min(uid_of("daemon"), uid_of("nobody"))) + ", " +
                    std::to_string(std::max(uid_of("daemon"), uid_of("nobody")));
  EXPECT_NE(which.output.find("job same-id exists for uids " + both + "; name the owner with --uid"), std::string::npos)
      << which.output;
  EXPECT_EQ(partitions_of(status("", {"--uid", std::to_string(uid_of("nobody"))})), 1u);
  EXPECT_EQ(partitions_of(status("", {"--uid", std::to_string(uid_of("daemon"))})), 2u);

  // Clients: their own, whatever others have; naming another owner is an unknown job.
  EXPECT_EQ(partitions_of(status("nobody", {})), 1u);
  EXPECT_EQ(partitions_of(status("daemon", {"--uid", std::to_string(uid_of("daemon"))})), 2u);
  const auto other = status("nobody", {"--uid", std::to_string(uid_of("daemon"))});
  EXPECT_EQ(other.exit, 2) << other.output;
  EXPECT_NE(other.output.find("unknown_job"), std::string::npos) << other.output;
  EXPECT_EQ(other.output.find("exists for"), std::string::npos) << other.output;

  // Wait and Fetch take the owner too.
  auto c = svc.connect();
  const auto fetched = c.fetch("same-id", uid_of("daemon"));
  ASSERT_TRUE(std::holds_alternative<proto::job_status>(fetched));
  EXPECT_EQ(std::get<proto::job_status>(fetched).partitions.size(), 2u);
  const auto waited = c.wait("same-id", std::chrono::milliseconds(100), uid_of("nobody"));
  ASSERT_TRUE(std::holds_alternative<proto::job_status>(waited));
  EXPECT_EQ(std::get<proto::job_status>(waited).partitions.size(), 1u);
  try {
    (void)c.fetch("same-id");
    ADD_FAILURE() << "an ambiguous Fetch was answered";
  } catch (const client::server_error& e) {
    EXPECT_EQ(e.code(), proto::error_code::bad_request) << e.what();
  }
  const auto wait_cli = cli_as("", {"wait", "--endpoint", svc.endpoint(), "--job-id", "same-id", "--proof", "/dev/null",
                                    "--public", "/dev/null", "--timeout", "1"});
  EXPECT_NE(wait_cli.output.find("exists for uids " + both), std::string::npos) << wait_cli.output;

  // The operator's own job with the id wins.
  submit("", 3);
  EXPECT_EQ(partitions_of(status("", {})), 3u);
}

}  // namespace
}  // namespace cuzk::test
