#include "listeners/session_table.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace cuzk::server {
namespace {

struct counters_t {
  std::uint64_t accepted = 0, refused_per_key = 0, refused_total = 0;
};

struct table_t;
struct fake_session {
  table_t* table;
  std::uint64_t id;
  void close();
};

struct table_t : session_table<std::string, fake_session, counters_t> {
  std::vector<std::uint64_t> closed;
  table_t()
      : session_table({3, 2}, {"test: ", "connections", "key", &counters_t::refused_per_key},
                      [this](std::uint64_t id) { closed.push_back(id); }) {}
  std::shared_ptr<fake_session> open(const std::string& key) {
    return admit(key, "a connection of " + key, [this](std::uint64_t id) { return new fake_session{this, id}; });
  }
};

void fake_session::close() { table->remove(id); }

TEST(SessionTable, BoundsPerKeyThenInTotalAndCountsEachRefusal) {
  table_t t;
  const auto a1 = t.open("a"), a2 = t.open("a");
  ASSERT_TRUE(a1 && a2);
  EXPECT_NE(a1->id, a2->id);
  EXPECT_EQ(t.open("a"), nullptr);  // a third of one key
  EXPECT_EQ(t.counters.refused_per_key, 1u);
  EXPECT_EQ(t.connections_of("a"), 2u);
  ASSERT_TRUE(t.open("b"));
  EXPECT_EQ(t.open("c"), nullptr);  // a fourth in all
  EXPECT_EQ(t.counters.refused_total, 1u);
  EXPECT_EQ(t.counters.accepted, 3u);
  EXPECT_EQ(t.connections_of("c"), 0u);
  EXPECT_EQ(t.sessions.size(), 3u);
}

TEST(SessionTable, RemoveGivesThePlaceBackAndTellsOnce) {
  table_t t;
  const auto a1 = t.open("a");
  ASSERT_TRUE(t.open("a"));
  a1->close();
  a1->close();  // a second close of the same connection changes nothing
  EXPECT_EQ(t.closed, std::vector<std::uint64_t>{a1->id});
  EXPECT_EQ(t.connections_of("a"), 1u);
  EXPECT_EQ(t.find(a1->id), nullptr);
  const auto again = t.open("a");
  ASSERT_TRUE(again);
  EXPECT_GT(again->id, a1->id);  // numbers are never given twice
  EXPECT_EQ(t.find(again->id), again);
}

TEST(SessionTable, CloseAllClosesEveryConnectionWithoutTelling) {
  table_t t;
  ASSERT_TRUE(t.open("a"));
  ASSERT_TRUE(t.open("b"));
  t.close_all();
  EXPECT_TRUE(t.sessions.empty());
  EXPECT_TRUE(t.closed.empty());
}

}  // namespace
}  // namespace cuzk::server
