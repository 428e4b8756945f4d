// The capacity reply's rate (throughput.hpp).
#include "admin/throughput.hpp"

#include <gtest/gtest.h>

namespace cuzk::server {
namespace {

using namespace std::chrono_literals;

TEST(Throughput, IsProofsPerMinuteOverTheLastFiveMinutesOrSinceTheStart) {
  const auto t0 = throughput::clock::time_point{} + 1h;
  throughput t(t0);
  EXPECT_EQ(t.per_minute(t0 + 30s), 0);
  for (int i = 0; i < 10; ++i) t.proven(t0 + 1s * (i + 1));
  EXPECT_DOUBLE_EQ(t.per_minute(t0 + 30s), 20.0);  // 10 in the half minute since the start
  EXPECT_DOUBLE_EQ(t.per_minute(t0 + 5min), 2.0);  // 10 in five minutes
  EXPECT_DOUBLE_EQ(t.per_minute(t0 + 6min), 0.0);  // all older than the window
  t.proven(t0 + 6min);
  EXPECT_DOUBLE_EQ(t.per_minute(t0 + 6min), 0.2);
}

}  // namespace
}  // namespace cuzk::server
