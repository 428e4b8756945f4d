#include <cstdio>

#include "commands.hpp"
#include "groth16/verifier.hpp"
#include "io/snarkjs_json.hpp"

namespace cuzk::cli {

int run_verify(const verify_args& a) {
  groth16::verifying_key vk;
  groth16::proof p;
  std::vector<groth16::fr_t> pub;
  try {
    vk = io::vk_from_json(io::read_json_file(a.vk));
    pub = io::public_from_json(io::read_json_file(a.public_path));
    p = io::proof_from_json(io::read_json_file(a.proof));
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

}  // namespace cuzk::cli
