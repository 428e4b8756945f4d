#include "util/expected.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>

namespace cuzk::util {
namespace {

enum class oops { bad, worse };

TEST(Expected, HoldsAValueOrAnError) {
  expected<std::string, oops> v = std::string("x");
  expected<std::string, oops> e = unexpected(oops::worse);
  ASSERT_TRUE(v);
  EXPECT_EQ(*v, "x");
  EXPECT_EQ(v->size(), 1u);
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error(), oops::worse);
}

TEST(Expected, MovesOutMoveOnlyValues) {
  expected<std::unique_ptr<int>, oops> v = std::make_unique<int>(7);
  std::unique_ptr<int> p = std::move(v).value();
  EXPECT_EQ(*p, 7);
}

TEST(Expected, VoidCarriesOnlySuccessOrAnError) {
  expected<void, oops> ok;
  expected<void, oops> bad = unexpected(oops::bad);
  EXPECT_TRUE(ok);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error(), oops::bad);
}

}  // namespace
}  // namespace cuzk::util
