#include <gtest/gtest.h>

#include "proto/codec.hpp"
#include "proto/names.hpp"
#include "random_message.hpp"
#include "seed.hpp"

namespace cuzk::proto {
namespace {

TEST(ProtoRoundTrip, EveryKindOfMessageSurvivesEncodeThenDecode) {
  auto rng = test::rng(1);
  test::message_gen gen(rng);
  for (std::size_t kind = 0; kind < test::message_gen::kinds; ++kind) {
    for (int i = 0; i < 200; ++i) {
      const message m = gen.of_kind(kind);
      ASSERT_FALSE(check(m)) << *check(m);
      auto d = decode(encode(m));
      ASSERT_TRUE(d) << name(m.body) << ": " << d.error().reason;
      EXPECT_EQ(*d, m) << name(m.body);
    }
  }
}

TEST(ProtoRoundTrip, DefaultsAndBoundaryValuesSurvive) {
  submit s{"a", "", priority::normal, 1, "/k.zkey", circom_work{"/w.wtns", std::nullopt}, std::nullopt};
  status_request capacity_only;
  capacity_only.capacity_only = true;
  status_request cluster;
  cluster.cluster = true;
  for (const message& m :
       {message{0, s}, message{~0ULL, bye{max_lease}}, message{1, status_request{}}, message{1, capacity_only},
        message{1, cluster}, message{2, wait_request{std::string(max_job_id_bytes, 'j'), max_wait_ms}},
        message{3, filled{~0ULL, ~0ULL, ~0ULL, ~0ULL, ~0ULL}}, message{4, status_reply{}}, message{5, heartbeat{}},
        message{6, abort_synthesis{~0ULL, 7}}, message{7, synth_aborted{3, ~0ULL}}}) {
    auto d = decode(encode(m));
    ASSERT_TRUE(d) << name(m.body) << ": " << d.error().reason;
    EXPECT_EQ(*d, m);
  }
}

TEST(ProtoRoundTrip, AStatusReplyWithGpusAndPartitionTimingsSurvives) {
  job_status js{"j", job_state::done, "", 1, 2, priority::normal, "", {{}, {}}};
  js.partitions[0].state = partition_state::done;
  js.partitions[0].timings = partition_timings{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 55};
  js.partitions[0].gpu = 3;
  js.partitions[1].state = partition_state::done;
  js.partitions[1].timings = partition_timings{0, 0, 1, 1, 1, 1, 1, 0, 0, 2, 9};  // the CPU: gpu -1
  status_reply r{{js}, {}, {}, 0, {}, 60000, std::nullopt, {}};
  r.keys.push_back({"0123456789abcdef0123456789abcdef", "drop", 5000, 38ULL << 30});
  r.keys.push_back({"fedcba9876543210fedcba9876543210", "keep", 36ULL << 30, 0});
  r.gpus.push_back({0,
                    "NVIDIA H200",
                    2,
                    0.5,
                    141ULL << 30,
                    1ULL << 30,
                    130ULL << 30,
                    {"ab12", "cd34"},
                    7,
                    11,
                    1,
                    {"h 11@22 l 11@22 a 0 b1 0 b2 0", "none"},
                    5,
                    0,
                    {}});
  r.gpus.push_back({1, "", 0, 0, 0, 0, 0, {}, 0, 0, 0, {}, 0, 0, {}});
  r.capacity = capacity{{{"ab12", priority::high, 3, 1}, {"", priority::low, 0, 2}},
                        {{0, 1ULL << 20, 1ULL << 20, 4, 1}, {1, 1ULL << 27, 140000000, 1, 0}},
                        12.5,
                        14.4,
                        false,
                        "you hold 3 jobs",
                        3,
                        4,
                        {{"email-verifier", "cpp", "0123456789abcdef0123456789abcdef"}}};
  auto d = decode(encode(message{9, r}));
  ASSERT_TRUE(d) << d.error().reason;
  const auto& back = std::get<status_reply>(d->body);
  ASSERT_TRUE(back.capacity);
  EXPECT_EQ(back.capacity->keys.at(0).priority, priority::high);
  EXPECT_EQ(back, r);
  EXPECT_EQ(back.jobs[0].partitions[1].gpu, -1);
  EXPECT_EQ(back.gpus[0].resident_keys, (std::vector<std::string>{"ab12", "cd34"}));
  EXPECT_EQ(back.hung_timeout_ms, 60000u);
  EXPECT_EQ(back.keys.at(0).host_copy, "drop");
  EXPECT_EQ(back.keys.at(1).host_bytes, 36ULL << 30);
  // A partition without timings (not proven yet) stays without them.
  EXPECT_FALSE(
      std::get<job_status>(
          decode(encode(message{1, job_status{"j", job_state::queued, "", 0, 0, priority::normal, "", {{}}}}))->body)
          .partitions[0]
          .timings);
}

TEST(ProtoRoundTrip, AClusterViewSurvives) {
  status_reply r;
  r.cluster = cluster_view{
      "gpu-07",
      true,
      "",
      60000,
      {{"gpu-07", true, 1200, 2, 1, {"0123456789abcdef0123456789abcdef"}}, {"gpu-09", false, 312000, 0, 3, {}}},
      4};
  auto d = decode(encode(message{9, r}));
  ASSERT_TRUE(d) << d.error().reason;
  EXPECT_EQ(std::get<status_reply>(d->body), r);
  status_reply down;
  down.cluster =
      cluster_view{"gpu-07", false, "FATAL:  password authentication failed for user \"cuzk\"\n", 60000, {}, 0};
  d = decode(encode(message{9, down}));
  ASSERT_TRUE(d) << d.error().reason;
  EXPECT_EQ(std::get<status_reply>(d->body), down);
  // An old server's reply carries none.
  EXPECT_FALSE(std::get<status_reply>(decode(encode(message{9, status_reply{}}))->body).cluster);
}

TEST(ProtoRoundTrip, AnEmptyR1csPathIsNotTheSameAsNone) {
  // proto3 `optional`: a present but empty path reaches the rules (and fails),
  // it is not silently read as "no .r1cs".
  submit s{"a", "", priority::normal, 1, "/k.zkey", circom_work{"/w.wtns", std::string()}, std::nullopt};
  auto d = decode(encode(message{0, s}));
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error().code, error_code::malformed);
  EXPECT_NE(d.error().reason.find("Submit.circom.r1cs"), std::string::npos) << d.error().reason;
}

TEST(ProtoRoundTrip, ErrorMessageEchoesTheRequestId) {
  decode_error e{error_code::unknown_job, "no job x", 42};
  auto d = decode(encode(error_message(e)));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->request_id, 42u);
  EXPECT_EQ(std::get<error_reply>(d->body), (error_reply{error_code::unknown_job, "no job x", 42}));
}

TEST(ProtoNames, EveryEnumValueHasAName) {
  EXPECT_EQ(name(priority::low), "low");
  EXPECT_EQ(name(job_state::failed), "failed");
  EXPECT_EQ(name(partition_state::synthesized), "synthesized");
  EXPECT_EQ(name(slot_state::proving), "proving");
  EXPECT_EQ(name(worker_state::hung), "hung");
  EXPECT_EQ(name(error_code::unavailable), "unavailable");
  EXPECT_EQ(name(body{bye{}}), "bye");
  EXPECT_EQ(name(static_cast<job_state>(9)), "invalid");
  EXPECT_EQ(priority_from_name("high"), priority::high);
  EXPECT_EQ(name(priority::critical), "critical");
  EXPECT_EQ(priority_from_name("critical"), priority::critical);
  EXPECT_EQ(name(body{abort_synthesis{}}), "abort");
  EXPECT_EQ(name(body{synth_aborted{}}), "aborted");
  EXPECT_FALSE(priority_from_name("urgent"));
}

}  // namespace
}  // namespace cuzk::proto
