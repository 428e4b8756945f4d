// Bounds of the count and duration options of every cuzk process: an absurd
// value (10^8 threads) is refused with the option's name and the range, never
// tried. The TOML keys become these options, so the file is checked alike.
#pragma once

#include <CLI/CLI.hpp>

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

}  // namespace cuzk::config
