#include "util/utf8.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "seed.hpp"

namespace cuzk::util {
namespace {

bool valid(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto n = utf8_sequence(s, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

/* Code points of valid text; the text is checked valid first. */
std::u32string code_points(std::string_view s) {
  std::u32string out;
  for (std::size_t i = 0; i < s.size();) {
    char32_t cp = 0;
    const auto n = utf8_sequence(s, i, &cp);
    if (n == 0) return U"<invalid>";
    out += cp;
    i += n;
  }
  return out;
}

std::string utf8_of(char32_t cp) {
  std::string s;
  if (cp < 0x80)
    s += char(cp);
  else if (cp < 0x800)
    s += char(0xc0 | (cp >> 6)), s += char(0x80 | (cp & 0x3f));
  else if (cp < 0x10000)
    s += char(0xe0 | (cp >> 12)), s += char(0x80 | ((cp >> 6) & 0x3f)), s += char(0x80 | (cp & 0x3f));
  else
    s += char(0xf0 | (cp >> 18)), s += char(0x80 | ((cp >> 12) & 0x3f)), s += char(0x80 | ((cp >> 6) & 0x3f)),
        s += char(0x80 | (cp & 0x3f));
  return s;
}

/* Text built from pieces a hostile client would mix: ASCII, C0, DEL, other scripts,
   C1 controls, bidi overrides, astral characters, stray and cut bytes. */
std::string hostile_text(std::mt19937_64& g, std::size_t pieces) {
  std::string s;
  for (std::size_t k = 0; k < pieces; ++k) {
    switch (g() % 9) {
      case 0: {
        const char c = char(0x20 + g() % 0x5f);
        s += c == '\\' ? '/' : c;  // unescape() reads backslashes as escapes
        break;
      }
      case 1:
        s += char(g() % 0x20);
        break;
      case 2:
        s += '\x7f';
        break;
      case 3:
        s += utf8_of(char32_t(0xa0 + g() % 0x700));
        break;  // Latin-1 .. Arabic
      case 4:
        s += utf8_of(char32_t(0x4e00 + g() % 0x5000));
        break;  // CJK
      case 5:
        s += utf8_of(char32_t(0x80 + g() % 0x20));
        break;  // C1
      case 6:
        s += utf8_of(g() % 2 ? char32_t(0x202a + g() % 5) : char32_t(0x2066 + g() % 4));
        break;
      case 7:
        s += utf8_of(char32_t(0x10000 + g() % 0xfffff));
        break;
      default: {
        const auto cut = utf8_of(char32_t(0x800 + g() % 0xf000));
        s += g() % 2 ? cut.substr(0, 1 + g() % (cut.size() - 1)) : std::string(1, char(0x80 + g() % 0x80));
      }
    }
  }
  return s;
}

/* The inverse of escape_for_terminal for text without backslashes. */
std::string unescape(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    if (s[i] != '\\') {
      out += s[i++];
    } else if (s[i + 1] == 'x') {
      out += char(std::stoul(std::string(s.substr(i + 2, 2)), nullptr, 16));
      i += 4;
    } else {
      const auto close = s.find('}', i);
      out += utf8_of(char32_t(std::stoul(std::string(s.substr(i + 3, close - i - 3)), nullptr, 16)));
      i = close + 1;
    }
  }
  return out;
}

TEST(Utf8, SequencesAreRecognisedOnlyWhenWellFormed) {
  EXPECT_EQ(utf8_sequence("a", 0), 1u);
  EXPECT_EQ(utf8_sequence("\xc3\xa9", 0), 2u);
  EXPECT_EQ(utf8_sequence("\xe4\xb8\xad", 0), 3u);
  EXPECT_EQ(utf8_sequence("\xf4\x8f\xbf\xbf", 0), 4u);
  for (const char* bad : {"\x80", "\xc3", "\xc0\x80", "\xe0\x80\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80",
                          "\xf8\x88\x80\x80", "\xe4\xb8", "\xff"})
    EXPECT_EQ(utf8_sequence(bad, 0), 0u) << testing::PrintToString(std::string(bad));
}

TEST(Utf8, TruncationCutsOnACharacterBoundaryAndReplacesStrayBytes) {
  EXPECT_EQ(truncate_utf8("caf\xc3\xa9", 4), "caf");
  EXPECT_EQ(truncate_utf8("caf\xc3\xa9", 5), "caf\xc3\xa9");
  EXPECT_EQ(truncate_utf8("\xe4\xb8\xad\xe4\xb8\xad", 5), "\xe4\xb8\xad");
  EXPECT_EQ(truncate_utf8("a\xffz", 10), "a\xef\xbf\xbdz");
  EXPECT_EQ(truncate_utf8("a\xe4\xb8", 10), "a\xef\xbf\xbd\xef\xbf\xbd");
  EXPECT_EQ(truncate_utf8("", 10), "");
  EXPECT_EQ(truncate_utf8("abc", 0), "");
}

TEST(Utf8, RandomTextTruncatesToTheLongestValidPrefixThatFits) {
  auto g = test::rng(0x75746638);
  for (int round = 0; round < 2000; ++round) {
    const auto s = hostile_text(g, g() % 40);
    const std::size_t max = g() % (s.size() + 8);
    const auto t = truncate_utf8(s, max);
    ASSERT_LE(t.size(), max);
    ASSERT_TRUE(valid(t)) << testing::PrintToString(s) << " max " << max;
    const auto whole = truncate_utf8(s, 4 * s.size());
    ASSERT_TRUE(valid(whole));
    ASSERT_EQ(whole.compare(0, t.size(), t), 0) << "a truncation is a prefix of the repaired text";
    if (t.size() < whole.size()) {
      ASSERT_GT(t.size() + utf8_sequence(whole, t.size()), max) << "the next character fits";
    }
    if (valid(s)) {
      ASSERT_EQ(whole, s) << "valid text is kept as it is";
    }
    char buf[64];
    const auto n = copy_utf8(s, buf, std::min<std::size_t>(max, sizeof buf));
    ASSERT_EQ(std::string(buf, n), truncate_utf8(s, std::min<std::size_t>(max, sizeof buf)));
  }
}

TEST(Utf8, TerminalEscapesControlsC1BidiAndStrayBytesAndKeepsOtherScripts) {
  EXPECT_EQ(escape_for_terminal("\x1b[31mred\x7f"), "\\x1b[31mred\\x7f");
  EXPECT_EQ(escape_for_terminal("a\nb\tc\r"), "a\\x0ab\\x09c\\x0d");
  EXPECT_EQ(escape_for_terminal("a\nb\tc\r", true), "a\nb\tc\\x0d");
  EXPECT_EQ(escape_for_terminal("\xc2\x85\xc2\x9b"
                                "1m"),
            "\\u{0085}\\u{009b}1m");
  EXPECT_EQ(escape_for_terminal("file\xe2\x80\xae"
                                "fdp.exe\xe2\x81\xa6"),
            "file\\u{202e}fdp.exe\\u{2066}");
  EXPECT_EQ(escape_for_terminal("caf\xc3\xa9 \xe4\xb8\xad \xf0\x9d\x94\xbd"),
            "caf\xc3\xa9 \xe4\xb8\xad \xf0\x9d\x94\xbd");
  EXPECT_EQ(escape_for_terminal("a\xff\xe4\xb8"), "a\\xff\\xe4\\xb8");
  EXPECT_EQ(printable("\xe4\xb8\xad\xe4\xb8\xad", 4), "\xe4\xb8\xad");
}

TEST(Utf8, RandomTextEscapesToValidSafeTextThatReadsBack) {
  auto g = test::rng(0x657363);
  for (int round = 0; round < 2000; ++round) {
    const auto s = hostile_text(g, g() % 40);
    const bool keep = g() % 2;
    const auto e = escape_for_terminal(s, keep);
    ASSERT_TRUE(valid(e)) << testing::PrintToString(s);
    for (char32_t cp : code_points(e)) {
      ASSERT_FALSE(cp < 0x20 && !(keep && (cp == '\n' || cp == '\t'))) << testing::PrintToString(e);
      ASSERT_FALSE(cp >= 0x7f && cp <= 0x9f) << testing::PrintToString(e);
      ASSERT_FALSE((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069)) << testing::PrintToString(e);
    }
    ASSERT_EQ(unescape(e), s) << "the escape loses nothing";
  }
}

}  // namespace
}  // namespace cuzk::util
