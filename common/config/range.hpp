// Bounds of the count and duration options of every cuzk process: an absurd
// value (10^8 threads) is refused with the option's name and the range, never
// tried. The TOML keys become these options, so the file is checked alike.
#pragma once

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>

namespace cuzk::config {

/* Accepts values in [lo, hi]; "--OPTION: VALUE is not in the allowed range LO to HI" otherwise. */
template <class T>
CLI::Validator range(T lo, T hi) {
  std::ostringstream d;
  d << "in [" << lo << ", " << hi << "]";
  return CLI::Validator(
      [lo, hi](std::string& in) -> std::string {
        T v{};
        if (CLI::detail::lexical_cast(in, v) && !(v < lo) && !(hi < v)) return {};
        std::ostringstream o;
        o << in << " is not in the allowed range " << lo << " to " << hi;
        return o.str();
      },
      d.str());
}

/* Accepts a count of seconds that is a whole number of `unit`s (per_second of them a second: 1 for
   seconds, 1000 for milliseconds), since the option is kept in those units: "--OPTION: 2.5 is not a whole
   number of seconds" rather than a silent cut to 2. */
inline CLI::Validator whole(double per_second, const std::string& unit) {
  return CLI::Validator(
      [per_second, unit](std::string& in) -> std::string {
        double v = 0;
        if (!CLI::detail::lexical_cast(in, v)) return in + " is not a number";
        const double n = v * per_second;
        if (std::abs(n - std::round(n)) <= 1e-9 * std::max(1.0, std::abs(n))) return {};
        return in + " is not a whole number of " + unit + " (the option counts whole " + unit + ")";
      },
      "whole " + unit);
}

}  // namespace cuzk::config
