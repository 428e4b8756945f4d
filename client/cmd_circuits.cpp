#include <cstdio>

#include <nlohmann/json.hpp>

#include "circuits/registry.hpp"
#include "commands.hpp"
#include "io/snarkjs_json.hpp"

namespace cuzk::cli {

int run_inputs(const inputs_args& a) {
  auto c = circuits::make_circuit(a.circuit);
  auto j = c->random_inputs(a.seed);
  if (a.out.empty()) std::printf("%s\n", j.dump(1).c_str());
  else io::write_json_file(a.out, j);
  return 0;
}

int run_list_circuits() {
  for (const auto& info : circuits::known_circuits())
    std::printf("%-16s %-22s %s\n", std::string(info.name).c_str(), std::string(info.params).c_str(),
                std::string(info.summary).c_str());
  return 0;
}

}  // namespace cuzk::cli
