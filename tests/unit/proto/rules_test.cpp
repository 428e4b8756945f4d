#include <gtest/gtest.h>

#include "proto/rules.hpp"

namespace cuzk::proto {
namespace {

TEST(ProtoRules, Utf8AcceptsEveryEncodingLength) {
  EXPECT_TRUE(is_utf8(""));
  EXPECT_TRUE(is_utf8("plain"));
  EXPECT_TRUE(is_utf8("caf\xc3\xa9 \xe4\xb8\xad \xf0\x9d\x94\xbd \xf4\x8f\xbf\xbf"));  // é 中 𝔽 U+10FFFF
}

TEST(ProtoRules, Utf8RefusesBadSequences) {
  for (const char* bad : {"\x80", "\xc3", "\xc0\x80", "\xe0\x80\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80",
                          "\xf8\x88\x80\x80\x80", "\xe4\xb8", "a\xffz"})
    EXPECT_FALSE(is_utf8(bad)) << testing::PrintToString(std::string(bad));
}

TEST(ProtoRules, JobIdsAreVisibleAsciiWithoutSlash) {
  EXPECT_FALSE(check_job_id("id", "2026-11-30.run~7:a_b"));
  EXPECT_FALSE(check_job_id("id", std::string(63, 'x')));
  EXPECT_TRUE(check_job_id("id", std::string(64, 'x')));
  EXPECT_TRUE(check_job_id("id", ""));
  EXPECT_TRUE(check_job_id("id", "a/b"));
  EXPECT_TRUE(check_job_id("id", "a\tb"));
}

TEST(ProtoRules, PathsAreAbsolute) {
  EXPECT_FALSE(check_path("p", "/srv/keys/a b.zkey"));
  EXPECT_EQ(*check_path("p", "a.zkey"), "p: not an absolute path");
  EXPECT_EQ(*check_path("p", ""), "p: missing");
}

TEST(ProtoRules, KeysArePathsOrKeyIds) {
  EXPECT_FALSE(check_key("k", "/srv/keys/a.zkey"));
  EXPECT_FALSE(check_key("k", "0123456789abcdef0123456789abcdef"));
  const std::string not_key = "k: neither an absolute path nor a key id (32 lowercase hex digits)";
  EXPECT_EQ(*check_key("k", "0123456789ABCDEF0123456789abcdef"), not_key);
  EXPECT_EQ(*check_key("k", "0123456789abcdef0123456789abcde"), not_key);
  EXPECT_EQ(*check_key("k", "0123456789abcdef0123456789abcdef0"), not_key);
  EXPECT_EQ(*check_key("k", "a.zkey"), not_key);
  EXPECT_EQ(*check_key("k", ""), "k: missing");
}

TEST(ProtoRules, DecimalsAreDigitsOnly) {
  EXPECT_FALSE(check_decimal("r", "0123456789"));
  EXPECT_TRUE(check_decimal("r", "-1"));
  EXPECT_TRUE(check_decimal("r", " 1"));
}

}  // namespace
}  // namespace cuzk::proto
