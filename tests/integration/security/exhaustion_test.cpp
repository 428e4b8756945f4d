// Every client is exhaustible (DESIGN §9, issue 19): a hostile client's
// excess of job-table entries and of submissions to prepare is refused to it,
// never paid for by another client.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <random>
#include <thread>

#include "client/lib/errors.hpp"
#include "harness.hpp"
#include "hostile.hpp"
#include "run.hpp"
#include "seed.hpp"

namespace cuzk::test {
namespace {

using namespace std::chrono_literals;

const std::string circuit = "chain:size=64";

TEST(Exhaustion, OneClientsFinishedUnfetchedJobsNeverFillTheJobTable) {
  REQUIRE_SECOND_UID();
  service svc({"2x4096"}, {"--jobs", "8"});
  auto server = svc.start_server({}, {"--client-group", "nogroup"});
  auto worker = svc.start_worker("w1");
  const auto in = svc.dir() / "in.json";
  std::ofstream(in) << inputs_for(circuit, seed());
  int accepted = 0;
  for (int i = 0; i < 8; ++i) {
    const auto r = cli(true, {"submit", "--endpoint", svc.endpoint(), "--zkey", key_for(circuit).path, "--circuit",
                              circuit, "--inputs", in.string(), "--job-id", "hoard-" + std::to_string(i)});
    accepted += r.exit == 0;
    if (i < 4) {
      EXPECT_EQ(r.exit, 0) << r.output;
    } else {
      EXPECT_NE(r.output.find("limit per client is 4"), std::string::npos) << r.output;
    }
  }
  EXPECT_LE(accepted, 4) << "one client took more than half of an 8-entry job table";
  auto c = svc.connect();
  ASSERT_TRUE(eventually(
      [&] {  // the hoard finished and was never fetched
        auto st = c.status();
        return std::count_if(st.jobs.begin(), st.jobs.end(),
                             [](const auto& j) { return j.state == proto::job_state::done; }) == accepted;
      },
      120s));
  const auto mine = c.submit(native_submit("mine", circuit, seed() + 1, "victim"));
  EXPECT_TRUE(mine.created);
  EXPECT_TRUE(std::holds_alternative<proto::proof_reply>(c.wait("mine", 120s)));
}

TEST(Exhaustion, OneClientsFloodOfSlowSubmissionsLeavesOthersAPreparationTurn) {
  REQUIRE_SECOND_UID();
  service svc({"2x4096"});
  auto server = svc.start_server({}, {"--client-group", "nogroup"});
  auto worker = svc.start_worker("w1");
  // Not a key, but a file the server must hash and copy before it can say so.
  const auto junk = svc.dir() / "junk.zkey";
  random_file(junk, 48, seed());
  // Made before the fork: the child, as nobody, only sends (its key cache would be written as nobody, under $TMPDIR).
  auto flood_submit = native_submit("", circuit, 1, "flood");
  flood_submit.zkey = junk.string();
  const pid_t flood = fork_as_nobody([&] {
    raw_peer p(svc.endpoint());
    auto s = flood_submit;
    int outstanding = 0, sent = 0;
    const auto until = std::chrono::steady_clock::now() + 8s;
    while (std::chrono::steady_clock::now() < until) {
      while (outstanding < 64) {
        s.job_id = "flood-" + std::to_string(sent++);
        p.send(s, static_cast<std::uint64_t>(sent));
        ++outstanding;
      }
      if (p.receive(20ms)) --outstanding;
    }
    return 0;
  });
  std::this_thread::sleep_for(1500ms);  // the flood holds every preparation it may
  auto c = svc.connect(30000ms);
  int busy = 0;
  bool created = false;
  for (int i = 0; i < 5 && !created; ++i) {
    try {
      created = c.submit(native_submit("fair", circuit, seed(), "victim")).created;
    } catch (const client::server_error& e) {
      ASSERT_EQ(e.code(), proto::error_code::busy) << e.what();
      ++busy;
      std::this_thread::sleep_for(200ms);
    }
  }
  EXPECT_EQ(busy, 0) << "another client's flood of submissions left this client no preparation";
  ASSERT_TRUE(created);
  EXPECT_TRUE(std::holds_alternative<proto::proof_reply>(c.wait("fair", 120s)));
  EXPECT_EQ(wait_child(flood, 20s), 0);
}

TEST(Exhaustion, AHugeSha256MessageIsRefusedInMillisecondsAndOtherClientsAreAnswered) {
  REQUIRE_SECOND_UID();
  service svc({"2x4096"});
  auto server = svc.start_server({}, {"--client-group", "nogroup"});
  auto worker = svc.start_worker("w1");
  // sha256 of 2^24 bytes against a small key: 134 M message bits, gigabytes and seconds had they been expanded
  auto hostile_submit = native_submit("", circuit, 1, "hostile");
  hostile_submit.work = proto::native_work{"sha256:bytes=16777216", R"({"preimage_seed": 1})"};
  const pid_t hostile = fork_as_nobody([&] {
    raw_peer p(svc.endpoint());
    auto s = hostile_submit;
    const auto t0 = std::chrono::steady_clock::now();
    for (int round = 0; round < 2; ++round) {  // 4 at once: as many as one client may have in preparation
      for (int i = 0; i < 4; ++i) {
        s.job_id = "sha-" + std::to_string(4 * round + i);
        p.send(s, static_cast<std::uint64_t>(4 * round + i + 1));
      }
      for (int i = 0; i < 4; ++i) {
        auto m = p.receive(30s);
        const auto* e = m ? std::get_if<proto::error_reply>(&m->body) : nullptr;
        if (!e || e->code != proto::error_code::bad_request || e->message.find("sha256") == std::string::npos) {
          std::printf("not the refusal expected: %s\n", e ? e->message.c_str() : m ? "another reply" : "no reply");
          std::fflush(stdout);
          return 2;
        }
        if (round + i == 0) std::printf("refused: %s\n", e->message.c_str());
      }
    }
    const auto took = std::chrono::steady_clock::now() - t0;
    std::printf("8 sha256:bytes=16777216 Submits refused in %.3f s\n", std::chrono::duration<double>(took).count());
    std::fflush(stdout);
    return took < 2s ? 0 : 3;
  });
  std::this_thread::sleep_for(100ms);  // the hostile Submits are in
  auto c = svc.connect(30000ms);
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_TRUE(c.submit(native_submit("fair", circuit, seed(), "victim")).created);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 2s) << "another client's Submit waited for the hostile ones";
  EXPECT_EQ(wait_child(hostile, 60s), 0) << "the huge sha256 Submits were not all refused, with a sentence, within 2 s";
  EXPECT_TRUE(std::holds_alternative<proto::proof_reply>(c.wait("fair", 120s)));
}

}  // namespace
}  // namespace cuzk::test
