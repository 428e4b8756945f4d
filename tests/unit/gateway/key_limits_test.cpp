// What one key or address may hold at once, and its request rate (a token
// bucket of `rate` a second holding up to twice that).
#include "gateway/key_limits.hpp"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

namespace cuzk::gateway {
namespace {

using namespace std::chrono_literals;

TEST(KeyLimits, LeasesCountPerKeyAndKindAndAreGivenBackWhenTheyEnd) {
  key_limits k(10);
  std::vector<key_limits::lease> held;
  for (int i = 0; i < 3; ++i) {
    held.push_back(k.take(key_limits::kind::long_poll, "alice", 3));
    EXPECT_TRUE(held.back());
  }
  EXPECT_FALSE(k.take(key_limits::kind::long_poll, "alice", 3));
  EXPECT_TRUE(k.take(key_limits::kind::long_poll, "bob", 3)) << "another key has its own count";
  EXPECT_TRUE(k.take(key_limits::kind::webhook, "alice", 3)) << "another kind has its own count";
  held.pop_back();
  auto again = k.take(key_limits::kind::long_poll, "alice", 3);
  EXPECT_TRUE(again);
  auto moved = std::move(again);
  EXPECT_FALSE(k.take(key_limits::kind::long_poll, "alice", 3)) << "a moved lease still holds its place";
}

TEST(KeyLimits, ARequestRateHasABurstOfTwiceItThenRefillsAtIt) {
  key_limits k(10);
  int admitted = 0;
  for (int i = 0; i < 30; ++i) admitted += k.admit("alice");
  EXPECT_EQ(admitted, 20);
  EXPECT_TRUE(k.admit("bob")) << "a key's bucket is its own";
  std::this_thread::sleep_for(350ms);  // 3.5 tokens
  admitted = 0;
  for (int i = 0; i < 10; ++i) admitted += k.admit("alice");
  EXPECT_GE(admitted, 3);
  EXPECT_LE(admitted, 5);
}

}  // namespace
}  // namespace cuzk::gateway
