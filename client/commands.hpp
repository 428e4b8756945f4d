// The subcommands of the cuzk CLI, shaped like snarkjs's. Each returns the
// process exit status.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace cuzk::cli {

struct setup_args {
  std::string r1cs, circuit, zkey, seed, h_form = "odd-coset";
};
struct export_vk_args {
  std::string zkey, vk;
};
struct prove_args {
  std::string zkey, wtns, r1cs, circuit, inputs, proof, public_path, blinding;
  int threads = 0;
};
struct inputs_args {
  std::string circuit, out;
  std::uint64_t seed = 1;
};
struct verify_args {
  std::string vk, public_path, proof;
};

int run_setup(const setup_args& a);
int run_export_vk(const export_vk_args& a);
int run_prove(const prove_args& a);
int run_verify(const verify_args& a);
int run_inputs(const inputs_args& a);
int run_list_circuits();

/* "[cuzk] what (1.23 s)" on stderr, for long steps */
void progress(const std::string& what);

}  // namespace cuzk::cli
