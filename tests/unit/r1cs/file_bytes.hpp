// Helpers for the file-format tests: load a data file, patch bytes, and
// expect a format_error whose message contains a phrase.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "r1cs/binfile.hpp"
#include "r1cs/error.hpp"

namespace cuzk::r1cs::fixtures {

inline std::vector<std::uint8_t> data_file(const std::string& name) {
  return read_whole_file(std::string(CUZK_R1CS_TEST_DATA) + "/" + name, "test");
}

inline void put_u32(std::vector<std::uint8_t>& b, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) b.at(at + i) = static_cast<std::uint8_t>(v >> (8 * i));
}

inline void put_u64(std::vector<std::uint8_t>& b, std::size_t at, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) b.at(at + i) = static_cast<std::uint8_t>(v >> (8 * i));
}

/* BN254's scalar field, the circom default: what a file compiled without
   --prime bls12381 carries (little-endian) */
inline std::vector<std::uint8_t> bn254_prime_le() {
  const char* hex = "30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001";
  std::vector<std::uint8_t> be;
  for (int i = 0; i < 32; ++i)
    be.push_back(static_cast<std::uint8_t>(std::stoi(std::string(hex + 2 * i, 2), nullptr, 16)));
  return {be.rbegin(), be.rend()};
}

/* Runs parse and returns the format_error message ("" if it parsed). Any
   other exception fails the test. */
inline std::string format_error_of(const std::function<void()>& parse) {
  try {
    parse();
  } catch (const format_error& e) {
    return e.what();
  }
  return "";
}

}  // namespace cuzk::r1cs::fixtures
