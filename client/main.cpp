// cuzk: Groth16 on BLS12-381 — setup, export-vk, prove, verify.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <exception>

#include "commands.hpp"

int main(int argc, char** argv) {
  using namespace cuzk::cli;
  CLI::App app{"cuzk: Groth16 proofs on BLS12-381, compatible with snarkjs/circom"};
  app.require_subcommand(1);

  setup_args sa;
  auto* setup = app.add_subcommand("setup", "development trusted setup (single party) writing a snarkjs .zkey");
  auto* src = setup->add_option_group("circuit source")->require_option(1);
  src->add_option("--r1cs", sa.r1cs, "circom .r1cs file")->check(CLI::ExistingFile);
  src->add_option("--circuit", sa.circuit, "native circuit, NAME:key=value,... (e.g. chain:size=65536)");
  setup->add_option("--zkey", sa.zkey, "output proving key")->required();
  setup->add_option("--seed", sa.seed, "derive the toxic waste from this string (reproducible keys)");
  setup->add_option("--h-form", sa.h_form, "H query form: odd-coset (snarkjs) or coefficient (bellman)")
      ->check(CLI::IsMember({"odd-coset", "coefficient"}));

  export_vk_args ea;
  auto* exp = app.add_subcommand("export-vk", "write snarkjs's verification_key.json");
  exp->add_option("--zkey", ea.zkey)->required()->check(CLI::ExistingFile);
  exp->add_option("--vk", ea.vk)->required();

  prove_args pa;
  auto* prove = app.add_subcommand("prove", "prove with a .zkey and a circom witness or a native circuit");
  prove->add_option("--zkey", pa.zkey)->required()->check(CLI::ExistingFile);
  auto* wit = prove->add_option_group("witness")->require_option(1);
  wit->add_option("--wtns", pa.wtns, "circom witness (.wtns)")->check(CLI::ExistingFile);
  wit->add_option("--circuit", pa.circuit, "native circuit, NAME:key=value,...");
  prove->add_option("--inputs", pa.inputs, "inputs JSON of the native circuit")->check(CLI::ExistingFile);
  prove->add_option("--r1cs", pa.r1cs, "with --wtns: check the witness against the circuit first, naming a failing constraint")
      ->check(CLI::ExistingFile);
  prove->add_option("--proof", pa.proof)->required();
  prove->add_option("--public", pa.public_path)->required();
  prove->add_option("--blinding", pa.blinding, "fixed r,s (decimal) for a deterministic proof");
  prove->add_option("--threads", pa.threads, "worker threads (default: all cores)");

  inputs_args ia;
  auto* inputs = app.add_subcommand("inputs", "write example inputs JSON for a native circuit (random, from a seed)");
  inputs->add_option("--circuit", ia.circuit, "native circuit, NAME:key=value,...")->required();
  inputs->add_option("--seed", ia.seed, "seed of the random inputs");
  inputs->add_option("--out", ia.out, "output file (default: stdout)");

  auto* list = app.add_subcommand("circuits", "list the native circuits and their parameters");

  verify_args va;
  auto* verify = app.add_subcommand("verify", "verify a proof: exit 0 valid, 1 invalid, 2 error");
  verify->add_option("--vk", va.vk)->required();
  verify->add_option("--public", va.public_path)->required();
  verify->add_option("--proof", va.proof)->required();

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  try {
    if (*setup) return run_setup(sa);
    if (*exp) return run_export_vk(ea);
    if (*prove) return run_prove(pa);
    if (*verify) return run_verify(va);
    if (*inputs) return run_inputs(ia);
    if (*list) return run_list_circuits();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cuzk: error: %s\n", e.what());
    return 2;
  }
  return 2;
}
