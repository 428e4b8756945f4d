// Hex helpers for the ec tests; random values and the G1/G2 traits are in
// tests/support/random.hpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ec/subgroup.hpp"
#include "random.hpp"

namespace cuzk::test {

inline std::string to_hex(const std::uint8_t* p, std::size_t n) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (std::size_t i = 0; i < n; ++i) {
    s.push_back(digits[p[i] >> 4]);
    s.push_back(digits[p[i] & 15]);
  }
  return s;
}
template <class Bytes>
std::string to_hex(const Bytes& b) {
  return to_hex(b.data(), b.size());
}
inline std::vector<std::uint8_t> from_hex(const std::string& s) {
  std::vector<std::uint8_t> out(s.size() / 2);
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = (std::uint8_t)std::stoul(s.substr(2 * i, 2), nullptr, 16);
  return out;
}

}  // namespace cuzk::test
