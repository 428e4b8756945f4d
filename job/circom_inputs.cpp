#include "job/circom_inputs.hpp"

#include <filesystem>
#include <fstream>
#include <iterator>

#include <nlohmann/json.hpp>

#include "job/spec.hpp"
#include "util/utf8.hpp"

namespace cuzk::job {

namespace {

bool digits(std::string_view s, bool hex) {
  if (s.empty() || s.size() > 100) return false;
  for (char c : s)
    if (!(c >= '0' && c <= '9') && !(hex && ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')))) return false;
  return true;
}

/* An integer as circom's generators read one: a JSON integer, or a string of decimal digits (a minus sign
   allowed) or of hex digits after 0x. */
bool circom_number(const nlohmann::json& v) {
  if (v.is_number_integer()) return true;
  if (!v.is_string()) return false;
  std::string_view s = v.get_ref<const std::string&>();
  if (s.starts_with("0x") || s.starts_with("0X")) return digits(s.substr(2), true);
  if (s.starts_with('-')) s.remove_prefix(1);
  return digits(s, false);
}

/* The numbers in v, each checked. */
std::uint64_t check_value(const nlohmann::json& v, const std::string& where) {
  if (v.is_array()) {
    std::uint64_t n = 0;
    for (std::size_t i = 0; i < v.size(); ++i) n += check_value(v[i], where + "[" + std::to_string(i) + "]");
    return n;
  }
  if (!circom_number(v))
    throw job_error("input " + util::printable(where, 200) + " is " + util::printable(v.dump(), 80) +
                    ": circom takes an integer, a decimal or 0x-hex string, or arrays of those");
  return 1;
}

}  // namespace

std::string read_circom_inputs(const std::string& path, const circom_input_limits& lim) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) throw job_error("cannot read the inputs " + path + ": " + ec.message());
  if (size > lim.bytes)
    throw job_error("the inputs are " + std::to_string(size) + " bytes, over the limit of " +
                    std::to_string(lim.bytes));
  std::ifstream f(path, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (!f && !f.eof()) throw job_error("cannot read the inputs " + path);
  check_circom_inputs(text, lim);
  return text;
}

std::vector<circom_input> check_circom_inputs(std::string_view json, const circom_input_limits& lim) {
  if (json.size() > lim.bytes)
    throw job_error("the inputs are " + std::to_string(json.size()) + " bytes, over the limit of " +
                    std::to_string(lim.bytes));
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(json, [&](int depth, nlohmann::json::parse_event_t, nlohmann::json&) {
      if (depth > static_cast<int>(lim.depth) + 1)
        throw job_error("the inputs nest deeper than " + std::to_string(lim.depth) + " arrays");
      return true;
    });
  } catch (const nlohmann::json::exception& e) {
    throw job_error(std::string("the inputs are not JSON: ") + e.what());
  }
  if (!j.is_object()) throw job_error("the inputs must be a JSON object of input signals");
  std::vector<circom_input> given;
  for (const auto& [name, v] : j.items()) {
    if (name.empty() || name.size() > 256) throw job_error("an input signal name is empty or too long");
    given.push_back({name, check_value(v, name)});
  }
  return given;
}

}  // namespace cuzk::job
