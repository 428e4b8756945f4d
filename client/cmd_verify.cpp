#include <cstdio>

#include "commands.hpp"
#include "curves/bn254.hpp"
#include "groth16/verifier.hpp"
#include "io/snarkjs_json.hpp"

namespace cuzk::cli {

namespace {

/* The three files on curve C, the verification key's. */
template <class C>
int verify_on(const verify_args& a, const io::json& vk_json) {
  groth16::basic_verifying_key<C> vk;
  groth16::basic_proof<C> p;
  std::vector<ff::fr<C>> pub;
  try {
    vk = io::vk_from_json<C>(vk_json);
    pub = io::public_from_json<C>(io::read_json_file(a.public_path));
    p = io::proof_from_json<C>(io::read_json_file(a.proof));
  } catch (const io::json_invalid& e) {
    std::printf("INVALID: %s\n", e.what());
    return 1;
  } catch (const io::json_malformed& e) {
    std::fprintf(stderr, "cuzk: error: %s\n", e.what());
    return 2;
  }
  if (pub.size() + 1 != vk.ic.size()) {
    std::printf("INVALID: %zu public signals, the verification key expects %zu\n", pub.size(), vk.ic.size() - 1);
    return 1;
  }
  if (!groth16::verify(vk, pub, p)) {
    std::printf("INVALID: the pairing check failed\n");
    return 1;
  }
  std::printf("OK: the proof is valid\n");
  return 0;
}

}  // namespace

int run_verify(const verify_args& a) {
  io::json vk_json;
  try {
    vk_json = io::read_json_file(a.vk);
  } catch (const io::json_malformed& e) {
    std::fprintf(stderr, "cuzk: error: %s\n", e.what());
    return 2;
  }
  /* the key says its curve; an unknown one is refused by the BLS12-381 reader, naming it */
  if (io::curve_of(vk_json) == curves::curve_id::bn254) return verify_on<curves::bn254>(a, vk_json);
  return verify_on<curves::bls12_381>(a, vk_json);
}

}  // namespace cuzk::cli
