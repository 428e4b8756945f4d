#include "job/spec.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "util/hex.hpp"

namespace cuzk::job {

using nlohmann::json;

std::string spec::to_json() const {
  json j = {{"zkey", zkey}};
  if (is_native()) {
    j["circuit"] = circuit;
    j["inputs"] = inputs;
  } else if (is_installed()) {
    j["installed"] = installed;
    j["circuit_id"] = circuit_id;
    j["inputs_file"] = inputs_file;
    j["inputs_identity"] = inputs_identity;
  } else {
    j["wtns"] = wtns;
    if (!wtns_identity.empty()) j["wtns_identity"] = wtns_identity;
    if (!r1cs.empty()) j["r1cs"] = r1cs;
    if (!r1cs_identity.empty()) j["r1cs_identity"] = r1cs_identity;
  }
  if (blinding) j["blinding"] = util::to_hex(*blinding);
  return j.dump();
}

spec spec::from_json(std::string_view text) {
  json j = json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) throw job_error("job spec is not a JSON object");
  auto str = [&](const char* k) -> std::string {
    if (!j.contains(k)) return {};
    if (!j[k].is_string()) throw job_error(std::string("job spec field '") + k + "' is not a string");
    return j[k].get<std::string>();
  };
  spec s;
  s.zkey = str("zkey");
  s.circuit = str("circuit");
  s.inputs = str("inputs");
  s.wtns = str("wtns");
  s.r1cs = str("r1cs");
  s.wtns_identity = str("wtns_identity");
  s.r1cs_identity = str("r1cs_identity");
  s.installed = str("installed");
  s.circuit_id = str("circuit_id");
  s.inputs_file = str("inputs_file");
  s.inputs_identity = str("inputs_identity");
  if (j.contains("blinding")) {
    const auto bytes = util::from_hex(str("blinding"));
    if (!bytes || bytes->size() != blinding_bytes{}.size())
      throw job_error("job spec field 'blinding' is not " + std::to_string(blinding_bytes{}.size()) + " bytes in hex");
    s.blinding.emplace();
    std::copy(bytes->begin(), bytes->end(), s.blinding->begin());
  }
  if (int(s.is_native()) + int(!s.wtns.empty()) + int(s.is_installed()) != 1)
    throw job_error("job spec needs exactly one of 'circuit' (native), 'wtns' (circom) and 'installed'");
  if (s.is_installed() && (s.circuit_id.empty() || s.inputs_file.empty()))
    throw job_error("job spec of an installed circuit needs 'circuit_id' and 'inputs_file'");
  return s;
}

}  // namespace cuzk::job
