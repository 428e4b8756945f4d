// A job's priority (common/util/priority.hpp): its names, its serving order and its stored values.
#include <gtest/gtest.h>

#include <algorithm>

#include "util/priority.hpp"

namespace cuzk {
namespace {

TEST(Priority, EveryPriorityHasANameThatParsesBack) {
  for (const auto p : priorities_by_rank) {
    EXPECT_NE(name(p), "invalid");
    EXPECT_EQ(priority_from_name(name(p)), p);
  }
  EXPECT_EQ(name(priority::critical), "critical");
  EXPECT_EQ(name(static_cast<priority>(9)), "invalid");
  EXPECT_FALSE(priority_from_name("urgent"));
  EXPECT_FALSE(priority_from_name(""));
}

TEST(Priority, ClassesAreServedCriticalHighNormalLow) {
  EXPECT_TRUE(std::is_sorted(priorities_by_rank.begin(), priorities_by_rank.end(),
                             [](priority a, priority b) { return rank(a) < rank(b); }));
  EXPECT_EQ(priorities_by_rank.front(), priority::critical);
  EXPECT_EQ(priorities_by_rank.back(), priority::low);
  EXPECT_LT(rank(priority::critical), 0) << "preempting: before every other class";
}

TEST(Priority, StoredValuesStayWhatTheyWere) {
  /* the job table's byte and the cluster's column hold these: changing one misreads a stored job */
  EXPECT_EQ(stored(priority::high), 0);
  EXPECT_EQ(stored(priority::normal), 1);
  EXPECT_EQ(stored(priority::low), 2);
  EXPECT_EQ(stored(priority::critical), 3);
  for (const auto p : priorities_by_rank) EXPECT_EQ(priority_of(stored(p)), p);
  EXPECT_FALSE(priority_of(-1));
  EXPECT_FALSE(priority_of(4));
}

}  // namespace
}  // namespace cuzk
