// An HTTP query's values and durations (the metrics endpoint's ?since=, the
// gateway's ?wait= and ?key=), and %XX decoding.
#include "util/query.hpp"

#include <gtest/gtest.h>

namespace cuzk::util {
namespace {

TEST(Query, ValuesAreFoundByTheirWholeName) {
  EXPECT_EQ(query_value("a=1&wait=30s&b=2", "wait"), "30s");
  EXPECT_EQ(query_value("await=9&wait=5", "wait"), "5");
  EXPECT_EQ(query_value("wait=", "wait"), "");
  EXPECT_FALSE(query_value("waiting=5", "wait"));
  EXPECT_FALSE(query_value("", "wait"));
}

TEST(Query, DurationsAreSecondsMinutesOrHours) {
  EXPECT_EQ(seconds_of("30"), 30);
  EXPECT_EQ(seconds_of("2.5"), 2.5);
  EXPECT_EQ(seconds_of("90s"), 90);
  EXPECT_EQ(seconds_of("5m"), 300);
  EXPECT_EQ(seconds_of("1h"), 3600);
  for (const char* bad : {"", "-1", "x", "5d", "1e999", "nan"}) EXPECT_FALSE(seconds_of(bad)) << bad;
}

TEST(Query, PercentEscapesAreDecodedAndMalformedOnesKept) {
  EXPECT_EQ(url_decode("a%2Fb+c"), "a/b c");
  EXPECT_EQ(url_decode("http%3A%2F%2Fh%3A8%2Fx%3Fy%3D1"), "http://h:8/x?y=1");
  EXPECT_EQ(url_decode("%0d%0aX"), "\r\nX");
  EXPECT_EQ(url_decode("100%"), "100%");
  EXPECT_EQ(url_decode("%zz%4"), "%zz%4");
  EXPECT_EQ(url_decode("%41%4a%4A"), "AJJ");
}

}  // namespace
}  // namespace cuzk::util
