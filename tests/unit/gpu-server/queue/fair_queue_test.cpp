#include "queue/fair_queue.hpp"

#include <gtest/gtest.h>

#include <map>
#include <random>

#include "seed.hpp"

namespace cuzk::server {
namespace {

TEST(FairQueue, OwnersAreServedInTurnEachInItsOwnOrder) {
  fair_queue<int, int> q;
  for (int i = 0; i < 1000; ++i) q.push(1, i);  // a flood
  q.push(2, 0);
  q.push(3, 0);
  EXPECT_EQ(q.size(), 1002u);
  EXPECT_EQ(*q.pop(), 0);  // owner 1
  EXPECT_EQ(*q.pop(), 0);  // owner 2 next, not after the flood
  EXPECT_EQ(*q.pop(), 0);  // owner 3
  EXPECT_EQ(*q.pop(), 1);  // back to owner 1
  EXPECT_EQ(q.size_of(1), 998u);
  EXPECT_EQ(q.size_of(2), 0u);
}

TEST(FairQueue, RandomPushesAndPopsKeepEveryOwnersOrderAndNeverStarveAnOwner) {
  std::mt19937_64 g(test::seed());
  fair_queue<int, std::pair<int, int>> q;
  std::map<int, int> pushed, popped;
  std::map<int, int> waited;  // pops since the owner's oldest entry became the head
  for (int step = 0; step < 20000; ++step) {
    if (g() % 3 != 0) {
      const int owner = static_cast<int>(g() % 7);
      q.push(owner, {owner, pushed[owner]++});
    } else if (auto v = q.pop()) {
      EXPECT_EQ(v->second, popped[v->first]++) << "owner " << v->first << " out of order";
      for (auto& [o, w] : waited) w = o == v->first ? 0 : w + (q.size_of(o) > 0);
      for (const auto& [o, w] : waited) EXPECT_LE(w, 7) << "owner " << o << " waited " << w << " turns";
    }
    for (int o = 0; o < 7; ++o)
      if (q.size_of(o) == 0) waited[o] = 0;
  }
  std::size_t left = 0;
  for (const auto& [o, n] : pushed) left += static_cast<std::size_t>(n - popped[o]);
  EXPECT_EQ(q.size(), left);
}

}  // namespace
}  // namespace cuzk::server
