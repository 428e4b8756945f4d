// A circom circuit's input JSON as a client sends it, checked before any
// generator runs: bounded in bytes and nesting, an object whose values are
// circom's input shapes (an integer, a decimal or 0x-hex string, or nested
// arrays of those).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace cuzk::job {

struct circom_input_limits {
  std::size_t bytes = 16u << 20;
  unsigned depth = 16;  // of arrays in one signal's value
};

/* The top-level signal names; job_error saying what is wrong (and where) otherwise. */
std::vector<std::string> check_circom_inputs(std::string_view json, const circom_input_limits& lim = {});
/* A client's inputs file, its size checked before it is read, then checked as above: its text. */
std::string read_circom_inputs(const std::string& path, const circom_input_limits& lim = {});

}  // namespace cuzk::job
