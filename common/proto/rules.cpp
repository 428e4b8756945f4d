#include "proto/rules.hpp"

#include <cstdint>

#include "proto/limits.hpp"

namespace cuzk::proto {

namespace {

std::string fail(std::string_view field, std::string_view what) {
  std::string r(field);
  r += ": ";
  r += what;
  return r;
}

std::string too_long(std::string_view field, std::size_t n, std::size_t max) {
  return fail(field, std::to_string(n) + " bytes, at most " + std::to_string(max));
}

}  // namespace

bool is_utf8(std::string_view s) noexcept {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const auto* end = p + s.size();
  while (p < end) {
    const unsigned c = *p;
    if (c < 0x80) {
      ++p;
      continue;
    }
    std::size_t len;
    std::uint32_t cp, min;
    if ((c & 0xe0) == 0xc0)
      len = 2, cp = c & 0x1f, min = 0x80;
    else if ((c & 0xf0) == 0xe0)
      len = 3, cp = c & 0x0f, min = 0x800;
    else if ((c & 0xf8) == 0xf0)
      len = 4, cp = c & 0x07, min = 0x10000;
    else
      return false;
    if (static_cast<std::size_t>(end - p) < len) return false;
    for (std::size_t i = 1; i < len; ++i) {
      if ((p[i] & 0xc0) != 0x80) return false;
      cp = (cp << 6) | (p[i] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
    p += len;
  }
  return true;
}

rule_result check_job_id(std::string_view field, std::string_view v) {
  if (v.empty()) return fail(field, "missing");
  if (v.size() > max_job_id_bytes) return too_long(field, v.size(), max_job_id_bytes);
  for (unsigned char c : v)
    if (c < 0x21 || c > 0x7e || c == '/') return fail(field, "only visible ASCII other than '/' is allowed");
  return std::nullopt;
}

rule_result check_text(std::string_view field, std::string_view v, std::size_t max, bool multiline) {
  if (v.size() > max) return too_long(field, v.size(), max);
  if (!is_utf8(v)) return fail(field, "not UTF-8");
  for (unsigned char c : v) {
    if (multiline && (c == '\n' || c == '\t' || c == '\r')) continue;
    if (c < 0x20 || c == 0x7f) return fail(field, "control character");
  }
  return std::nullopt;
}

rule_result check_path(std::string_view field, std::string_view v) {
  if (v.empty()) return fail(field, "missing");
  if (v.front() != '/') return fail(field, "not an absolute path");
  return check_text(field, v, max_path_bytes);
}

rule_result check_key(std::string_view field, std::string_view v) {
  const bool key_id = v.size() == 32 && v.find_first_not_of("0123456789abcdef") == std::string_view::npos;
  if (key_id) return std::nullopt;
  if (!v.empty() && v.front() != '/')
    return fail(field, "neither an absolute path nor a key id (32 lowercase hex digits)");
  return check_path(field, v);
}

rule_result check_token(std::string_view field, std::string_view v, std::size_t max, bool may_be_empty) {
  if (v.empty() && !may_be_empty) return fail(field, "missing");
  if (v.size() > max) return too_long(field, v.size(), max);
  for (unsigned char c : v)
    if (c < 0x21 || c > 0x7e) return fail(field, "only visible ASCII is allowed");
  return std::nullopt;
}

rule_result check_decimal(std::string_view field, std::string_view v) {
  if (v.empty()) return fail(field, "missing");
  if (v.size() > max_decimal_digits) return too_long(field, v.size(), max_decimal_digits);
  for (char c : v)
    if (c < '0' || c > '9') return fail(field, "not a decimal number");
  return std::nullopt;
}

}  // namespace cuzk::proto
