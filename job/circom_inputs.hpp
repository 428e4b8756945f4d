// A circom circuit's input JSON as a client sends it, checked before any
// generator runs: bounded in bytes and nesting, an object whose values are
// circom's input shapes (an integer, a decimal or 0x-hex string, or nested
// arrays of those).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cuzk::job {

struct circom_input_limits {
  std::size_t bytes = 16u << 20;
  unsigned depth = 16;  // of arrays in one signal's value
};

struct circom_input {
  std::string name;
  std::uint64_t values = 0;  // its numbers, nested arrays flattened
  bool operator==(const circom_input&) const = default;
};

/* The top-level signals, by name; job_error saying what is wrong (and where) otherwise. */
std::vector<circom_input> check_circom_inputs(std::string_view json, const circom_input_limits& lim = {});
/* A client's inputs file, its size checked before it is read, then checked as above: its text. */
std::string read_circom_inputs(const std::string& path, const circom_input_limits& lim = {});

}  // namespace cuzk::job
