// The JSON that snarkjs reads and writes for Groth16 on bls12381 and bn128
// (decimal strings; points as projective triples with z = "1", infinity as
// ["0", "1", "0"]; Fp2 as [c0, c1]):
//   proof.json   {pi_a, pi_b, pi_c, protocol: "groth16", curve: "bls12381" | "bn128"}
//   public.json  ["<signal>", ...]
//   verification_key.json  {protocol, curve, nPublic, vk_alpha_1, vk_beta_2,
//                vk_gamma_2, vk_delta_2, vk_alphabeta_12, IC}
#pragma once

#include <optional>
#include <span>
#include <stdexcept>
#include <vector>

#include <nlohmann/json.hpp>

#include "curves/curve_id.hpp"
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

/* The curve a document says it is on ("curve": "bls12381" | "bn128"); a
   document without one (public.json, older proofs) says nothing. */
std::optional<curves::curve_id> curve_of(const json& j);

/* C: the curve; each *_from_json refuses a document that names another. */
template <class C>
json proof_to_json(const groth16::basic_proof<C>& p);
template <class C = curves::bls12_381>
groth16::basic_proof<C> proof_from_json(const json& j);

template <class C = curves::bls12_381>
json public_to_json(std::span<const ff::fr<C>> signals);
template <class C = curves::bls12_381>
std::vector<ff::fr<C>> public_from_json(const json& j);

template <class C>
json vk_to_json(const groth16::basic_verifying_key<C>& vk);
template <class C = curves::bls12_381>
groth16::basic_verifying_key<C> vk_from_json(const json& j);

/* Reads and parses a file; json_malformed when unreadable or not JSON. */
json read_json_file(const std::string& path);
/* Writes j with snarkjs's one-space indentation. */
void write_json_file(const std::string& path, const json& j);

}  // namespace cuzk::io
