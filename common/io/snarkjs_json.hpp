// The JSON that snarkjs reads and writes for Groth16 on bls12381 (decimal
// strings; points as projective triples with z = "1", infinity as
// ["0", "1", "0"]; Fp2 as [c0, c1]):
//   proof.json   {pi_a, pi_b, pi_c, protocol: "groth16", curve: "bls12381"}
//   public.json  ["<signal>", ...]
//   verification_key.json  {protocol, curve, nPublic, vk_alpha_1, vk_beta_2,
//                vk_gamma_2, vk_delta_2, vk_alphabeta_12, IC}
#pragma once

#include <stdexcept>
#include <vector>

#include <nlohmann/json.hpp>

#include "groth16/keys.hpp"

namespace cuzk::io {

using json = nlohmann::json;

/* The document is not what it should be: a missing field, a wrong type, a
   number that is not a decimal string. */
class json_malformed : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/* Well-formed, but a value is outside its group or field (snarkjs answers
   such input with "invalid"). */
class json_invalid : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

json proof_to_json(const groth16::proof& p);
groth16::proof proof_from_json(const json& j);

json public_to_json(std::span<const groth16::fr_t> signals);
std::vector<groth16::fr_t> public_from_json(const json& j);

json vk_to_json(const groth16::verifying_key& vk);
groth16::verifying_key vk_from_json(const json& j);

/* Reads and parses a file; json_malformed when unreadable or not JSON. */
json read_json_file(const std::string& path);
/* Writes j with snarkjs's one-space indentation. */
void write_json_file(const std::string& path, const json& j);

}  // namespace cuzk::io
