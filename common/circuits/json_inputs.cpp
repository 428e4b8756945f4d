#include "circuits/json_inputs.hpp"

#include "circuits/circuit.hpp"
#include "util/hex.hpp"
#include "curves/dispatch.hpp"

namespace cuzk::circuits {

const nlohmann::json& input_field(const nlohmann::json& j, std::string_view who, std::string_view key) {
  if (!j.is_object()) throw circuit_error(std::string(who) + ": inputs must be a JSON object");
  const auto it = j.find(key);
  if (it == j.end()) throw circuit_error(std::string(who) + ": inputs need \"" + std::string(key) + "\"");
  return *it;
}

template <class C>
ff::fr<C> to_fr(const nlohmann::json& v, std::string_view what) {
  std::string digits;
  if (v.is_string())
    digits = v.get<std::string>();
  else if (v.is_number_unsigned() || (v.is_number_integer() && v.get<std::int64_t>() >= 0))
    digits = std::to_string(v.get<std::uint64_t>());
  const auto x = ff::fr<C>::from_decimal(digits);
  if (!x) throw circuit_error(std::string(what) + " must be a decimal string of a field element below r");
  return *x;
}

#define CUZK_INSTANTIATE(C) template ff::fr<C> to_fr<C>(const nlohmann::json&, std::string_view);
CUZK_CURVES(CUZK_INSTANTIATE)
#undef CUZK_INSTANTIATE

std::uint64_t to_u64(const nlohmann::json& v, std::string_view what) {
  if (v.is_number_unsigned() || (v.is_number_integer() && v.get<std::int64_t>() >= 0)) return v.get<std::uint64_t>();
  if (v.is_string()) {
    const auto s = v.get<std::string>();
    if (!s.empty() && s.size() <= 20 && s.find_first_not_of("0123456789") == std::string::npos) {
      const auto x = ff::fr_t::from_decimal(s);
      const auto c = x ? x->to_canonical() : ff::fr_t::limbs_t{};
      if (x && c[1] == 0 && c[2] == 0 && c[3] == 0) return c[0];
    }
  }
  throw circuit_error(std::string(what) + " must be a non-negative integer below 2^64");
}

std::vector<std::uint8_t> hex_to_bytes(const nlohmann::json& v, std::string_view what) {
  if (!v.is_string()) throw circuit_error(std::string(what) + " must be a hex string");
  std::string_view s = v.get_ref<const std::string&>();
  if (s.starts_with("0x")) s.remove_prefix(2);
  if (s.size() % 2) throw circuit_error(std::string(what) + " has an odd number of hex digits");
  auto nibble = [&](char c) -> std::uint8_t {
    if (c >= '0' && c <= '9') return static_cast<std::uint8_t>(c - '0');
    if (c >= 'a' && c <= 'f') return static_cast<std::uint8_t>(c - 'a' + 10);
    if (c >= 'A' && c <= 'F') return static_cast<std::uint8_t>(c - 'A' + 10);
    throw circuit_error(std::string(what) + " has a character that is not a hex digit");
  };
  std::vector<std::uint8_t> out(s.size() / 2);
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = static_cast<std::uint8_t>(nibble(s[2 * i]) << 4 | nibble(s[2 * i + 1]));
  return out;
}

std::string bytes_to_hex(std::span<const std::uint8_t> b) { return util::to_hex(b); }

}  // namespace cuzk::circuits
