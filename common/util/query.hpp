// An HTTP query string's values, and durations as people write them in one:
// for the metrics endpoint's ?since= and the gateway's ?wait=, ?key=.
#pragma once

#include <charconv>
#include <cmath>
#include <optional>
#include <string>
#include <string_view>

namespace cuzk::util {

/* "300", "2.5", "90s", "5m", "1h": seconds; nullopt when malformed */
inline std::optional<double> seconds_of(std::string_view v) {
  double x = 0;
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
  if (ec != std::errc() || !std::isfinite(x) || x < 0) return std::nullopt;
  const std::string_view unit(end, static_cast<std::size_t>(v.data() + v.size() - end));
  if (unit.empty() || unit == "s") return x;
  if (unit == "m") return x * 60;
  if (unit == "h") return x * 3600;
  return std::nullopt;
}

/* The value of `key` in "a=1&since=300", or nullopt */
inline std::optional<std::string_view> query_value(std::string_view query, std::string_view key) {
  while (!query.empty()) {
    const auto amp = query.find('&');
    const auto item = query.substr(0, amp);
    if (item.size() > key.size() && item.substr(0, key.size()) == key && item[key.size()] == '=')
      return item.substr(key.size() + 1);
    if (amp == std::string_view::npos) break;
    query.remove_prefix(amp + 1);
  }
  return std::nullopt;
}

/* %XX and + decoded (a malformed escape is kept as it is). */
inline std::string url_decode(std::string_view v) {
  std::string out;
  out.reserve(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    int hi = 0, lo = 0;
    auto hex = [](char c, int& d) {
      const auto [p, ec] = std::from_chars(&c, &c + 1, d, 16);
      return ec == std::errc() && p == &c + 1;
    };
    if (v[i] == '%' && i + 2 < v.size() && hex(v[i + 1], hi) && hex(v[i + 2], lo)) {
      out += static_cast<char>(hi * 16 + lo);
      i += 2;
    } else {
      out += v[i] == '+' ? ' ' : v[i];
    }
  }
  return out;
}

}  // namespace cuzk::util
