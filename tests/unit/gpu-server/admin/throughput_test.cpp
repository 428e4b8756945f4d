// The capacity reply's rate (throughput.hpp) and take_if (take_if.hpp).
#include "admin/throughput.hpp"

#include <gtest/gtest.h>

#include "util/take_if.hpp"

namespace cuzk::server {
namespace {

using namespace std::chrono_literals;

TEST(Throughput, IsProofsPerMinuteOverTheLastFiveMinutesOrSinceTheStart) {
  const auto t0 = throughput::clock::time_point{} + 1h;
  throughput t(t0);
  EXPECT_EQ(t.per_minute(t0 + 30s), 0);
  for (int i = 0; i < 10; ++i) t.proven(t0 + 1s * (i + 1));
  EXPECT_DOUBLE_EQ(t.per_minute(t0 + 30s), 20.0);   // 10 in the half minute since the start
  EXPECT_DOUBLE_EQ(t.per_minute(t0 + 5min), 2.0);   // 10 in five minutes
  EXPECT_DOUBLE_EQ(t.per_minute(t0 + 6min), 0.0);   // all older than the window
  t.proven(t0 + 6min);
  EXPECT_DOUBLE_EQ(t.per_minute(t0 + 6min), 0.2);
}

TEST(TakeIf, TakesTheMatchesInOrderAndKeepsTheRestInOrder) {
  std::vector<int> v{1, 2, 3, 4, 5, 6};
  EXPECT_EQ(take_if(v, [](int x) { return x % 2 == 0; }), (std::vector<int>{2, 4, 6}));
  EXPECT_EQ(v, (std::vector<int>{1, 3, 5}));
  EXPECT_TRUE(take_if(v, [](int) { return false; }).empty());
  EXPECT_EQ(v.size(), 3u);
}

}  // namespace
}  // namespace cuzk::server
