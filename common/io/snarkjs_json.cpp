#include "io/snarkjs_json.hpp"

#include <fstream>

#include "ec/subgroup.hpp"
#include "pairing/pairing.hpp"

namespace cuzk::io {

namespace {

using ff::fp2_t;
using ff::fp_t;
using groth16::fr_t;
using groth16::g1_affine_t;
using groth16::g2_affine_t;

json dec(const fp_t& v) { return v.to_decimal(); }
json dec2(const fp2_t& v) { return json::array({dec(v.c0), dec(v.c1)}); }

json g1_json(const g1_affine_t& p) {
  if (p.infinity) return json::array({"0", "1", "0"});
  return json::array({dec(p.x), dec(p.y), "1"});
}
json g2_json(const g2_affine_t& p) {
  if (p.infinity) return json::array({json::array({"0", "0"}), json::array({"1", "0"}), json::array({"0", "0"})});
  return json::array({dec2(p.x), dec2(p.y), json::array({"1", "0"})});
}

const std::string& str(const json& j, const std::string& where) {
  if (!j.is_string()) throw json_malformed(where + ": expected a decimal string");
  return j.get_ref<const std::string&>();
}

template <class F>
F field(const json& j, const std::string& where, const char* field_name) {
  const std::string& s = str(j, where);
  if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos)
    throw json_malformed(where + ": \"" + s.substr(0, 40) + "\" is not a decimal number");
  auto v = F::from_decimal(s);
  if (!v) throw json_invalid(where + ": not below the " + field_name + " modulus");
  return *v;
}
fp_t fp(const json& j, const std::string& where) { return field<fp_t>(j, where, "base field"); }
fp2_t fp2(const json& j, const std::string& where) {
  if (!j.is_array() || j.size() != 2) throw json_malformed(where + ": expected [c0, c1]");
  return {fp(j[0], where + "[0]"), fp(j[1], where + "[1]")};
}

const json& member(const json& j, const char* key, const std::string& where) {
  if (!j.is_object()) throw json_malformed(where + ": expected an object");
  auto it = j.find(key);
  if (it == j.end()) throw json_malformed(where + ": missing \"" + key + "\"");
  return *it;
}

/* [x, y, z] with z = 1 (affine) or z = 0 (infinity); checked on the curve and
   in the subgroup, as snarkjs's isValid does. */
template <class P, class ParseF, class IsZ>
P point(const json& j, const std::string& where, ParseF parse, IsZ z_kind) {
  if (!j.is_array() || (j.size() != 3 && j.size() != 2)) throw json_malformed(where + ": expected [x, y, z]");
  auto x = parse(j[0], where + "[0]");
  auto y = parse(j[1], where + "[1]");
  int z = j.size() == 3 ? z_kind(j[2], where + "[2]") : 1;
  if (z == 0) return P{};
  P p{x, y, false};
  if (!ec::is_on_curve(p)) throw json_invalid(where + ": point not on the curve");
  if (!ec::in_subgroup(p)) throw json_invalid(where + ": point not in the prime-order subgroup");
  return p;
}

g1_affine_t g1(const json& j, const std::string& where) {
  return point<g1_affine_t>(j, where, fp, [](const json& z, const std::string& w) {
    fp_t v = fp(z, w);
    if (v.is_zero()) return 0;
    if (v.is_one()) return 1;
    throw json_invalid(w + ": z must be 0 or 1 (affine)");
  });
}
g2_affine_t g2(const json& j, const std::string& where) {
  return point<g2_affine_t>(j, where, fp2, [](const json& z, const std::string& w) {
    fp2_t v = fp2(z, w);
    if (v.is_zero()) return 0;
    if (v.is_one()) return 1;
    throw json_invalid(w + ": z must be 0 or 1 (affine)");
  });
}

}  // namespace

json proof_to_json(const groth16::proof& p) {
  return json{{"pi_a", g1_json(p.a)}, {"pi_b", g2_json(p.b)}, {"pi_c", g1_json(p.c)},
              {"protocol", "groth16"}, {"curve", "bls12381"}};
}

groth16::proof proof_from_json(const json& j) {
  if (auto it = j.find("curve"); j.is_object() && it != j.end() && *it != "bls12381")
    throw json_malformed("proof: curve is " + it->dump() + ", not \"bls12381\"");
  return {g1(member(j, "pi_a", "proof"), "proof.pi_a"), g2(member(j, "pi_b", "proof"), "proof.pi_b"),
          g1(member(j, "pi_c", "proof"), "proof.pi_c")};
}

json public_to_json(std::span<const fr_t> signals) {
  json out = json::array();
  for (const auto& s : signals) out.push_back(s.to_decimal());
  return out;
}

std::vector<fr_t> public_from_json(const json& j) {
  if (!j.is_array()) throw json_malformed("public signals: expected an array of decimal strings");
  std::vector<fr_t> out;
  for (std::size_t i = 0; i < j.size(); ++i)
    out.push_back(field<fr_t>(j[i], "public signal " + std::to_string(i), "scalar field"));
  return out;
}

json vk_to_json(const groth16::verifying_key& vk) {
  /* e(α, β) as nested [[[c0, c1] × 3] × 2], the Fp12 = Fp6[w] / Fp2[v] tower */
  const auto ab = pairing::pairing(vk.alpha1, vk.beta2);
  json gt = json::array();
  for (const auto* f6 : {&ab.c0, &ab.c1})
    gt.push_back(json::array({dec2(f6->c0), dec2(f6->c1), dec2(f6->c2)}));
  json ic = json::array();
  for (const auto& p : vk.ic) ic.push_back(g1_json(p));
  return json{{"protocol", "groth16"},
              {"curve", "bls12381"},
              {"nPublic", vk.ic.size() - 1},
              {"vk_alpha_1", g1_json(vk.alpha1)},
              {"vk_beta_2", g2_json(vk.beta2)},
              {"vk_gamma_2", g2_json(vk.gamma2)},
              {"vk_delta_2", g2_json(vk.delta2)},
              {"vk_alphabeta_12", gt},
              {"IC", ic}};
}

groth16::verifying_key vk_from_json(const json& j) {
  if (member(j, "protocol", "verification key") != "groth16")
    throw json_malformed("verification key: protocol is not \"groth16\"");
  if (member(j, "curve", "verification key") != "bls12381")
    throw json_malformed("verification key: curve is not \"bls12381\"");
  groth16::verifying_key vk;
  vk.alpha1 = g1(member(j, "vk_alpha_1", "verification key"), "vk_alpha_1");
  vk.beta2 = g2(member(j, "vk_beta_2", "verification key"), "vk_beta_2");
  vk.gamma2 = g2(member(j, "vk_gamma_2", "verification key"), "vk_gamma_2");
  vk.delta2 = g2(member(j, "vk_delta_2", "verification key"), "vk_delta_2");
  const json& ic = member(j, "IC", "verification key");
  if (!ic.is_array() || ic.empty()) throw json_malformed("verification key: IC must be a non-empty array");
  for (std::size_t i = 0; i < ic.size(); ++i) vk.ic.push_back(g1(ic[i], "IC[" + std::to_string(i) + "]"));
  if (auto it = j.find("nPublic"); it != j.end() && (!it->is_number_unsigned() || *it != ic.size() - 1))
    throw json_malformed("verification key: nPublic does not match the IC count");
  return vk;
}

json read_json_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw json_malformed(path + ": cannot open");
  try {
    return json::parse(in);
  } catch (const json::exception& e) {
    throw json_malformed(path + ": not valid JSON (" + e.what() + ")");
  }
}

void write_json_file(const std::string& path, const json& j) {
  std::ofstream out(path, std::ios::trunc);
  if (!out) throw std::runtime_error(path + ": cannot open for writing");
  out << j.dump(1) << "\n";
  if (!out) throw std::runtime_error(path + ": write failed");
}

}  // namespace cuzk::io
