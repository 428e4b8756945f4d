#include "util/take_if.hpp"

#include <gtest/gtest.h>

namespace cuzk::util {
namespace {

TEST(TakeIf, TakesTheMatchesInOrderAndKeepsTheRestInOrder) {
  std::vector<int> v{1, 2, 3, 4, 5, 6};
  EXPECT_EQ(take_if(v, [](int x) { return x % 2 == 0; }), (std::vector<int>{2, 4, 6}));
  EXPECT_EQ(v, (std::vector<int>{1, 3, 5}));
  EXPECT_TRUE(take_if(v, [](int) { return false; }).empty());
  EXPECT_EQ(v.size(), 3u);
}

}  // namespace
}  // namespace cuzk::util
