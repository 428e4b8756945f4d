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
  for (const message& m : {message{0, s}, message{~0ULL, bye{max_lease}}, message{1, status_request{}},
                           message{2, wait_request{std::string(max_job_id_bytes, 'j'), max_wait_ms}},
                           message{3, filled{~0ULL, ~0ULL, ~0ULL, ~0ULL, ~0ULL}}, message{4, status_reply{}},
                           message{5, heartbeat{}}}) {
    auto d = decode(encode(m));
    ASSERT_TRUE(d) << name(m.body) << ": " << d.error().reason;
    EXPECT_EQ(*d, m);
  }
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
  EXPECT_FALSE(priority_from_name("urgent"));
}

}  // namespace
}  // namespace cuzk::proto
