// What status tells each client of the GPUs (gpu-server/admin/gpu_report.hpp): key
// ids and their shifted MSM copies only to operators, in step with each other;
// every field within the decoder's rules.
#include <gtest/gtest.h>

#include "admin/gpu_report.hpp"
#include "proto/codec.hpp"

namespace cuzk::server {
namespace {

proto::gpu_status one_gpu() {
  proto::gpu_status g;
  g.name = "NVIDIA H200";
  g.mem_total = 141ULL << 30;
  g.mem_free = 20ULL << 30;
  g.resident_keys = {"ab12", "not a key id", "cd34"};
  g.resident_shifts = {"h 11@22 l 0 a 0 b1 0 b2 0", "none", "h\xff"};
  g.resident_key_bytes = {30ULL << 30, 1, 10ULL << 30};
  g.resident_bytes = 40ULL << 30;
  g.shifted_bytes = 50ULL << 30;
  return g;
}

TEST(GpuReport, KeysAndTheirCopiesOnlyForOperatorsAndInStep) {
  const auto others = gpu_report({one_gpu()}, false);
  ASSERT_EQ(others.size(), 1u);
  EXPECT_TRUE(others[0].resident_keys.empty());
  EXPECT_TRUE(others[0].resident_shifts.empty());
  EXPECT_TRUE(others[0].resident_key_bytes.empty());
  EXPECT_EQ(others[0].shifted_bytes, 40ULL << 30);  // the total, clamped to resident_bytes: no key named

  const auto ops = gpu_report({one_gpu()}, true);
  ASSERT_EQ(ops.size(), 1u);
  /* the key whose id is no token is left out with its copies; text that is not UTF-8 shows as "?" */
  EXPECT_EQ(ops[0].resident_keys, (std::vector<std::string>{"ab12", "cd34"}));
  EXPECT_EQ(ops[0].resident_shifts, (std::vector<std::string>{"h 11@22 l 0 a 0 b1 0 b2 0", "?"}));
  EXPECT_EQ(ops[0].resident_key_bytes, (std::vector<std::uint64_t>{30ULL << 30, 10ULL << 30}));
  proto::status_reply r;
  r.gpus = ops;
  r.hung_timeout_ms = 60000;
  const auto back = proto::decode(proto::encode(proto::message{1, r})); /* the decoder's rules hold */
  ASSERT_TRUE(back) << back.error().reason;
}

}  // namespace
}  // namespace cuzk::server
