// Frames no honest peer sends: oversized, empty, truncated, random, bit-
// flipped, from another version, with two bodies or with fields this version
// does not define. Each is refused with the right code, and none crashes.
#include <gtest/gtest.h>

#include "proto/codec.hpp"
#include "proto/cuzk.pb.h"
#include "proto/limits.hpp"
#include "random_message.hpp"
#include "seed.hpp"

namespace cuzk::proto {
namespace {

using bytes = std::vector<std::uint8_t>;

bytes serialize(const wire::Envelope& e) {
  bytes out(e.ByteSizeLong());
  e.SerializeToArray(out.data(), static_cast<int>(out.size()));
  return out;
}

wire::Envelope fetch_envelope() {
  wire::Envelope e;
  e.set_version(protocol_version);
  e.set_request_id(5);
  e.mutable_fetch()->set_job_id("job");
  return e;
}

error_code refusal(const bytes& frame) {
  auto d = decode(frame);
  EXPECT_FALSE(d) << "decoded";
  return d ? error_code{} : d.error().code;
}

TEST(ProtoFrames, AFrameOverTheLimitIsTooLarge) {
  bytes frame = encode(message{1, fetch{"job"}});
  frame.resize(max_frame_bytes + 1);
  EXPECT_EQ(refusal(frame), error_code::too_large);
}

TEST(ProtoFrames, AnEmptyFrameIsMalformed) { EXPECT_EQ(refusal({}), error_code::malformed); }

TEST(ProtoFrames, AnotherVersionIsUnsupportedAndKeepsTheRequestId) {
  for (std::uint32_t v : {0u, 2u, 0xffffffffu}) {
    auto e = fetch_envelope();
    e.set_version(v);
    auto d = decode(serialize(e));
    ASSERT_FALSE(d);
    EXPECT_EQ(d.error().code, error_code::unsupported_version) << v;
    EXPECT_EQ(d.error().request_id, 5u);
  }
}

TEST(ProtoFrames, AnEnvelopeWithoutBodyIsAnUnknownMessage) {
  wire::Envelope e;
  e.set_version(protocol_version);
  EXPECT_EQ(refusal(serialize(e)), error_code::unknown_message);
}

TEST(ProtoFrames, ABodyFieldThisVersionDoesNotKnowIsAnUnknownMessage) {
  bytes frame = serialize([] {
    wire::Envelope e;
    e.set_version(protocol_version);
    return e;
  }());
  frame.insert(frame.end(), {0xc2, 0x02, 0x00});  // field 40, length-delimited, empty
  auto d = decode(frame);
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error().code, error_code::unknown_message);
  EXPECT_NE(d.error().reason.find("40"), std::string::npos) << d.error().reason;
}

TEST(ProtoFrames, TwoBodiesAreMalformedEvenThoughProtobufWouldKeepTheLast) {
  bytes a = encode(message{1, fetch{"a"}});
  bytes b = encode(message{1, bye{1}});
  a.insert(a.end(), b.begin(), b.end());
  EXPECT_EQ(refusal(a), error_code::malformed);
  bytes twice = encode(message{1, fetch{"a"}});
  bytes again = twice;
  twice.insert(twice.end(), again.begin(), again.end());
  EXPECT_EQ(refusal(twice), error_code::malformed) << "the same body twice is merged by protobuf";
}

TEST(ProtoFrames, AnUnknownFieldBesideTheBodyIsMalformed) {
  bytes frame = encode(message{1, fetch{"a"}});
  frame.insert(frame.end(), {0x90, 0x03, 0x01});  // field 50, varint 1
  EXPECT_EQ(refusal(frame), error_code::malformed);
}

TEST(ProtoFrames, AnUnknownFieldInsideABodyIsMalformed) {
  auto e = fetch_envelope();
  e.mutable_fetch()->GetReflection()->MutableUnknownFields(e.mutable_fetch())->AddVarint(9, 1);
  auto d = decode(serialize(e));
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error().code, error_code::malformed);
  EXPECT_NE(d.error().reason.find("Fetch"), std::string::npos) << d.error().reason;
}

TEST(ProtoFrames, AKnownFieldWithTheWrongWireTypeIsMalformed) {
  bytes frame = {0x08, 0x01, 0x62, 0x00};  // version 1, then fetch (12) sent as a varint (wire type 0)
  frame[2] = (12 << 3) | 0;
  EXPECT_EQ(refusal(frame), error_code::malformed);
}

TEST(ProtoFrames, ASubmitWithoutWorkIsMalformed) {
  wire::Envelope e;
  e.set_version(protocol_version);
  auto* s = e.mutable_submit();
  s->set_job_id("j");
  s->set_partitions(1);
  s->set_zkey("/k");
  auto d = decode(serialize(e));
  ASSERT_FALSE(d);
  EXPECT_NE(d.error().reason.find("Submit.work"), std::string::npos) << d.error().reason;
}

TEST(ProtoFrames, AnEnumValueOutsideTheSchemaIsMalformed) {
  wire::Envelope e;
  e.set_version(protocol_version);
  auto* a = e.mutable_accepted();
  a->set_job_id("j");
  a->set_state(static_cast<wire::JobState>(-3));
  EXPECT_EQ(refusal(serialize(e)), error_code::malformed);
  a->set_state(static_cast<wire::JobState>(256 + 1));  // would wrap to QUEUED in 8 bits
  EXPECT_EQ(refusal(serialize(e)), error_code::malformed);
}

TEST(ProtoFrames, EveryTruncationOfEveryKindIsRefusedOrStillValid) {
  auto rng = test::rng(2);
  test::message_gen gen(rng);
  for (std::size_t kind = 0; kind < test::message_gen::kinds; ++kind) {
    const bytes frame = encode(gen.of_kind(kind));
    for (std::size_t n = 0; n < frame.size(); ++n) {
      auto d = decode(std::span(frame.data(), n));
      // A cut at a field boundary can still be a complete, valid Envelope.
      if (d) {
        EXPECT_FALSE(check(*d));
      }
    }
  }
}

TEST(ProtoFrames, RandomBytesNeverCrashTheDecoder) {
  auto rng = test::rng(3);
  std::uniform_int_distribution<int> byte(0, 255);
  int decoded = 0;
  for (int i = 0; i < 20000; ++i) {
    bytes frame(rng() % 200);
    for (auto& b : frame) b = static_cast<std::uint8_t>(byte(rng));
    if (decode(frame)) ++decoded;
  }
  EXPECT_LT(decoded, 20000);
}

TEST(ProtoFrames, BitFlipsOfValidFramesAreRefusedOrStillValid) {
  auto rng = test::rng(4);
  test::message_gen gen(rng);
  for (int i = 0; i < 5000; ++i) {
    bytes frame = encode(gen.any());
    for (int flips = 1 + static_cast<int>(rng() % 4); flips > 0; --flips)
      frame[rng() % frame.size()] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
    if (auto d = decode(frame)) {
      EXPECT_FALSE(check(*d));
    }
  }
}

}  // namespace
}  // namespace cuzk::proto
