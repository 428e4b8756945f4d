#include "util/utf8.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>

namespace cuzk::util {

namespace {

constexpr char replacement[] = "\xef\xbf\xbd";  // U+FFFD

bool escaped(char32_t cp) noexcept {
  return (cp >= 0x80 && cp <= 0x9f) || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

}  // namespace

std::size_t utf8_sequence(std::string_view s, std::size_t i, char32_t* cp) noexcept {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data()) + i;
  const std::size_t left = s.size() - i;
  const unsigned c = p[0];
  std::size_t len;
  std::uint32_t v, min;
  if (c < 0x80)
    len = 1, v = c, min = 0;
  else if ((c & 0xe0) == 0xc0)
    len = 2, v = c & 0x1f, min = 0x80;
  else if ((c & 0xf0) == 0xe0)
    len = 3, v = c & 0x0f, min = 0x800;
  else if ((c & 0xf8) == 0xf0)
    len = 4, v = c & 0x07, min = 0x10000;
  else
    return 0;
  if (left < len) return 0;
  for (std::size_t k = 1; k < len; ++k) {
    if ((p[k] & 0xc0) != 0x80) return 0;
    v = (v << 6) | (p[k] & 0x3f);
  }
  if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) return 0;
  if (cp) *cp = static_cast<char32_t>(v);
  return len;
}

std::size_t copy_utf8(std::string_view s, char* dst, std::size_t cap) noexcept {
  std::size_t out = 0;
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t len = utf8_sequence(s, i);
    const char* from = len ? s.data() + i : replacement;
    const std::size_t n = len ? len : 3;
    if (out + n > cap) break;
    for (std::size_t k = 0; k < n; ++k) dst[out++] = from[k];
    i += len ? len : 1;
  }
  return out;
}

std::string truncate_utf8(std::string_view s, std::size_t max_bytes) {
  std::string out(std::min(max_bytes, 3 * s.size()), '\0');
  out.resize(copy_utf8(s, out.data(), out.size()));
  return out;
}

std::string escape_for_terminal(std::string_view s, bool keep_newlines) {
  std::string out;
  out.reserve(s.size());
  char buf[16];
  for (std::size_t i = 0; i < s.size();) {
    char32_t cp = 0;
    const std::size_t len = utf8_sequence(s, i, &cp);
    if (len == 0) {
      std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(s[i]));
      out += buf;
      ++i;
      continue;
    }
    if (len == 1 && (cp < 0x20 || cp == 0x7f) && !(keep_newlines && (cp == '\n' || cp == '\t'))) {
      std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned>(cp));
      out += buf;
    } else if (escaped(cp)) {
      std::snprintf(buf, sizeof buf, "\\u{%04x}", static_cast<unsigned>(cp));
      out += buf;
    } else {
      out.append(s.data() + i, len);
    }
    i += len;
  }
  return out;
}

std::string printable(std::string_view s, std::size_t max_bytes, bool keep_newlines) {
  return truncate_utf8(escape_for_terminal(s, keep_newlines), max_bytes);
}

}  // namespace cuzk::util
