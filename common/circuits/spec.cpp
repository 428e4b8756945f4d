#include "circuits/spec.hpp"

#include "circuits/circuit.hpp"

namespace cuzk::circuits {

circuit_spec parse_spec(std::string_view text) {
  circuit_spec s;
  const auto colon = text.find(':');
  s.name = std::string(text.substr(0, colon));
  if (s.name.empty()) throw circuit_error("circuit spec \"" + std::string(text) + "\": no circuit name");
  if (colon == std::string_view::npos) return s;
  std::string_view rest = text.substr(colon + 1);
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    const auto eq = item.find('=');
    if (eq == std::string_view::npos || eq == 0)
      throw circuit_error("circuit spec \"" + std::string(text) + "\": expected key=value, got \"" + std::string(item) +
                          "\"");
    std::string key(item.substr(0, eq));
    for (const auto& [k, v] : s.params)
      if (k == key) throw circuit_error("circuit spec \"" + std::string(text) + "\": " + key + " given twice");
    s.params.emplace_back(std::move(key), std::string(item.substr(eq + 1)));
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
    if (rest.empty()) throw circuit_error("circuit spec \"" + std::string(text) + "\": trailing comma");
  }
  return s;
}

bool param_reader::has(std::string_view key) const {
  for (const auto& [k, v] : spec_.params)
    if (k == key) return true;
  return false;
}

std::uint64_t param_reader::u64(std::string_view key, std::uint64_t fallback, std::uint64_t min, std::uint64_t max) {
  for (std::size_t i = 0; i < spec_.params.size(); ++i) {
    const auto& [k, v] = spec_.params[i];
    if (k != key) continue;
    used_[i] = true;
    const std::string where = spec_.name + ": " + k + "=" + v;
    if (v.empty() || v.size() > 19 || v.find_first_not_of("0123456789") != std::string::npos)
      throw circuit_error(where + " is not a decimal integer");
    const std::uint64_t x = std::stoull(v);
    if (x < min || x > max)
      throw circuit_error(where + " is out of range [" + std::to_string(min) + ", " + std::to_string(max) + "]");
    return x;
  }
  return fallback;
}

void param_reader::finish(std::string_view known) const {
  for (std::size_t i = 0; i < used_.size(); ++i)
    if (!used_[i])
      throw circuit_error(spec_.name + ": unknown parameter \"" + spec_.params[i].first +
                          "\" (known: " + std::string(known) + ")");
}

}  // namespace cuzk::circuits
