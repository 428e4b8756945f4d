#include "util/interval_union.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

namespace cuzk::util {
namespace {

TEST(IntervalUnion, CountsOverlapsOnceInAnyOrder) {
  interval_union u;
  EXPECT_DOUBLE_EQ(u.add(5, 15), 10);
  EXPECT_DOUBLE_EQ(u.add(0, 10), 5);  // reaches back before the first
  EXPECT_DOUBLE_EQ(u.add(2, 12), 0);  // inside
  EXPECT_DOUBLE_EQ(u.add(20, 30), 10);
  EXPECT_DOUBLE_EQ(u.add(-5, 40), 45 - 25);  // covers both spans and the gap
  EXPECT_EQ(u.spans(), 1u);
  EXPECT_DOUBLE_EQ(u.add(3, 3), 0);
  EXPECT_DOUBLE_EQ(u.add(7, 4), 0);
}

TEST(IntervalUnion, ForgetsBeforeTheHorizonAndClipsToIt) {
  interval_union u;
  u.add(0, 10);
  u.add(20, 30);
  u.forget_before(15);
  EXPECT_EQ(u.spans(), 1u);
  EXPECT_DOUBLE_EQ(u.add(5, 25), 5);  // [15, 20): before 15 is not counted again
}

/* against a fine grid: random intervals in random order */
TEST(IntervalUnion, MatchesAGrid) {
  const unsigned seed = std::random_device{}();
  std::printf("seed %u\n", seed);
  std::mt19937 rng(seed);
  for (int round = 0; round < 50; ++round) {
    interval_union u;
    std::vector<bool> grid(1000, false);
    double total = 0;
    for (int i = 0; i < 40; ++i) {
      const int a = int(rng() % 1000), len = int(rng() % 100);
      const int b = std::min(1000, a + len);
      total += u.add(a, b);
      for (int x = a; x < b; ++x) grid[x] = true;
      ASSERT_DOUBLE_EQ(total, double(std::count(grid.begin(), grid.end(), true))) << "seed " << seed;
    }
  }
}

}  // namespace
}  // namespace cuzk::util
