#include "io/snarkjs_json.hpp"

#include <fstream>

#include "ec/subgroup.hpp"
#include "pairing/pairing.hpp"

namespace cuzk::io {

namespace {

template <class P>
json dec(const ff::mont_field<P>& v) {
  return v.to_decimal();
}
template <class C>
json dec2(const ff::fp2<C>& v) {
  return json::array({dec(v.c0), dec(v.c1)});
}

template <class P>
json g1_json(const ec::affine_point<ff::mont_field<P>>& p) {
  if (p.infinity) return json::array({"0", "1", "0"});
  return json::array({dec(p.x), dec(p.y), "1"});
}
template <class C>
json g2_json(const ec::affine_point<ff::fp2<C>>& p) {
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
template <class C>
ff::fp<C> fp(const json& j, const std::string& where) {
  return field<ff::fp<C>>(j, where, "base field");
}
template <class C>
ff::fp2<C> fp2(const json& j, const std::string& where) {
  if (!j.is_array() || j.size() != 2) throw json_malformed(where + ": expected [c0, c1]");
  return {fp<C>(j[0], where + "[0]"), fp<C>(j[1], where + "[1]")};
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

template <class C>
ec::g1_affine<C> g1(const json& j, const std::string& where) {
  return point<ec::g1_affine<C>>(j, where, fp<C>, [](const json& z, const std::string& w) {
    auto v = fp<C>(z, w);
    if (v.is_zero()) return 0;
    if (v.is_one()) return 1;
    throw json_invalid(w + ": z must be 0 or 1 (affine)");
  });
}
template <class C>
ec::g2_affine<C> g2(const json& j, const std::string& where) {
  return point<ec::g2_affine<C>>(j, where, fp2<C>, [](const json& z, const std::string& w) {
    auto v = fp2<C>(z, w);
    if (v.is_zero()) return 0;
    if (v.is_one()) return 1;
    throw json_invalid(w + ": z must be 0 or 1 (affine)");
  });
}

/* a document naming another curve than C */
template <class C>
void expect_curve(const json& j, const std::string& what, bool required) {
  const std::string want(curves::snarkjs_name(C::id));
  if (!j.is_object()) throw json_malformed(what + ": expected an object");
  auto it = j.find("curve");
  if (it == j.end()) {
    if (required) throw json_malformed(what + ": missing \"curve\"");
    return;
  }
  if (*it == want) return;
  auto other = it->is_string() ? curves::parse_curve(it->get<std::string>()) : std::nullopt;
  if (other)
    throw json_malformed(what + ": curve is " + std::string(curves::display_name(*other)) + " (\"" +
                         it->get<std::string>() + "\"), not " + std::string(curves::display_name(C::id)) + " (\"" +
                         want + "\")");
  throw json_malformed(what + ": curve is " + it->dump().substr(0, 40) + ", not \"" + want + "\"");
}

}  // namespace

std::optional<curves::curve_id> curve_of(const json& j) {
  if (!j.is_object()) return std::nullopt;
  auto it = j.find("curve");
  if (it == j.end() || !it->is_string()) return std::nullopt;
  return curves::parse_curve(it->get<std::string>());
}

template <class C>
json proof_to_json(const groth16::basic_proof<C>& p) {
  return json{{"pi_a", g1_json(p.a)},
              {"pi_b", g2_json(p.b)},
              {"pi_c", g1_json(p.c)},
              {"protocol", "groth16"},
              {"curve", std::string(curves::snarkjs_name(C::id))}};
}

template <class C>
groth16::basic_proof<C> proof_from_json(const json& j) {
  expect_curve<C>(j, "proof", false);
  return {g1<C>(member(j, "pi_a", "proof"), "proof.pi_a"), g2<C>(member(j, "pi_b", "proof"), "proof.pi_b"),
          g1<C>(member(j, "pi_c", "proof"), "proof.pi_c")};
}

template <class C>
json public_to_json(std::span<const ff::fr<C>> signals) {
  json out = json::array();
  for (const auto& s : signals) out.push_back(s.to_decimal());
  return out;
}

template <class C>
std::vector<ff::fr<C>> public_from_json(const json& j) {
  if (!j.is_array()) throw json_malformed("public signals: expected an array of decimal strings");
  std::vector<ff::fr<C>> out;
  for (std::size_t i = 0; i < j.size(); ++i)
    out.push_back(field<ff::fr<C>>(j[i], "public signal " + std::to_string(i), "scalar field"));
  return out;
}

template <class C>
json vk_to_json(const groth16::basic_verifying_key<C>& vk) {
  /* e(α, β) as nested [[[c0, c1] × 3] × 2], the Fp12 = Fp6[w] / Fp2[v] tower */
  const auto ab = pairing::pairing(vk.alpha1, vk.beta2);
  json gt = json::array();
  for (const auto* f6 : {&ab.c0, &ab.c1}) gt.push_back(json::array({dec2(f6->c0), dec2(f6->c1), dec2(f6->c2)}));
  json ic = json::array();
  for (const auto& p : vk.ic) ic.push_back(g1_json(p));
  return json{{"protocol", "groth16"},
              {"curve", std::string(curves::snarkjs_name(C::id))},
              {"nPublic", vk.ic.size() - 1},
              {"vk_alpha_1", g1_json(vk.alpha1)},
              {"vk_beta_2", g2_json(vk.beta2)},
              {"vk_gamma_2", g2_json(vk.gamma2)},
              {"vk_delta_2", g2_json(vk.delta2)},
              {"vk_alphabeta_12", gt},
              {"IC", ic}};
}

template <class C>
groth16::basic_verifying_key<C> vk_from_json(const json& j) {
  if (member(j, "protocol", "verification key") != "groth16")
    throw json_malformed("verification key: protocol is not \"groth16\"");
  expect_curve<C>(j, "verification key", true);
  groth16::basic_verifying_key<C> vk;
  vk.alpha1 = g1<C>(member(j, "vk_alpha_1", "verification key"), "vk_alpha_1");
  vk.beta2 = g2<C>(member(j, "vk_beta_2", "verification key"), "vk_beta_2");
  vk.gamma2 = g2<C>(member(j, "vk_gamma_2", "verification key"), "vk_gamma_2");
  vk.delta2 = g2<C>(member(j, "vk_delta_2", "verification key"), "vk_delta_2");
  const json& ic = member(j, "IC", "verification key");
  if (!ic.is_array() || ic.empty()) throw json_malformed("verification key: IC must be a non-empty array");
  for (std::size_t i = 0; i < ic.size(); ++i) vk.ic.push_back(g1<C>(ic[i], "IC[" + std::to_string(i) + "]"));
  if (auto it = j.find("nPublic"); it != j.end() && (!it->is_number_unsigned() || *it != ic.size() - 1))
    throw json_malformed("verification key: nPublic does not match the IC count");
  return vk;
}

#define CUZK_SNARKJS_JSON(C)                                        \
  template json proof_to_json(const groth16::basic_proof<C>&);      \
  template groth16::basic_proof<C> proof_from_json<C>(const json&); \
  template json public_to_json<C>(std::span<const ff::fr<C>>);      \
  template std::vector<ff::fr<C>> public_from_json<C>(const json&); \
  template json vk_to_json(const groth16::basic_verifying_key<C>&); \
  template groth16::basic_verifying_key<C> vk_from_json<C>(const json&);
CUZK_SNARKJS_JSON(curves::bls12_381)
CUZK_SNARKJS_JSON(curves::bn254)
#undef CUZK_SNARKJS_JSON

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
