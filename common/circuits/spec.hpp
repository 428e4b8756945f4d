// Circuit specs, "NAME" or "NAME:key=value,key=value", and the parameter
// reader each circuit uses to take its keys (unknown keys are errors).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cuzk::circuits {

struct circuit_spec {
  std::string name;
  std::vector<std::pair<std::string, std::string>> params;
};

/* circuit_error on an empty name, a missing '=', an empty key or a repeated key. */
circuit_spec parse_spec(std::string_view text);

class param_reader {
 public:
  explicit param_reader(const circuit_spec& spec) : spec_(spec), used_(spec.params.size()) {}

  bool has(std::string_view key) const;
  /* A decimal integer in [min, max]; fallback when the key is absent. */
  std::uint64_t u64(std::string_view key, std::uint64_t fallback, std::uint64_t min, std::uint64_t max);
  /* circuit_error naming the first key nobody took, and the known ones. */
  void finish(std::string_view known) const;

 private:
  const circuit_spec& spec_;
  std::vector<bool> used_;
};

}  // namespace cuzk::circuits
