#include <cstdio>

#include "circuits/registry.hpp"
#include "commands.hpp"
#include "groth16/native.hpp"
#include "io/zkey.hpp"
#include "r1cs/r1cs_file.hpp"

namespace cuzk::cli {

int run_setup(const setup_args& a) {
  using namespace groth16;
  const toxic_waste t = a.seed.empty() ? toxic_waste::random() : toxic_waste::from_seed(a.seed);
  const h_form h = a.h_form == "coefficient" ? h_form::coefficient : h_form::odd_coset;
  auto report = [](std::string_view what, std::uint64_t done, std::uint64_t total) {
    progress("setup: " + std::string(what) + " (" + std::to_string(done) + "/" + std::to_string(total) + ")");
  };
  proving_key pk;
  if (!a.r1cs.empty()) {
    progress("reading " + a.r1cs);
    auto f = r1cs::read_r1cs_file(a.r1cs);
    progress("setup for " + std::to_string(f.m.n_constraints()) + " constraints, " + std::to_string(f.m.n_wires) +
             " wires");
    pk = setup(f.m, t, h, report);
  } else {
    auto c = circuits::make_circuit(a.circuit);
    progress("setup for " + c->spec());
    pk = setup_circuit(*c, t, h, report);
  }
  progress("writing " + a.zkey);
  io::write_zkey_file(a.zkey, pk);
  if (a.seed.empty() == false)
    std::fprintf(stderr, "cuzk: warning: --seed makes the toxic waste reproducible; for tests only\n");
  progress("done: domain 2^" + std::to_string(pk.log_domain()) + ", " + std::to_string(pk.n_public) +
           " public signals");
  return 0;
}

}  // namespace cuzk::cli
