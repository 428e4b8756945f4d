// An HTTP query string's values, and durations as people write them in one:
// for the metrics endpoint's ?since= and the gateway's ?wait=.
#pragma once

#include <charconv>
#include <cmath>
#include <optional>
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

}  // namespace cuzk::util
