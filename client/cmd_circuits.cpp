#include <cstdio>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "circuits/registry.hpp"
#include "commands.hpp"
#include "curves/dispatch.hpp"
#include "io/snarkjs_json.hpp"

namespace cuzk::cli {

curves::curve_id curve_option(const std::string& value) {
  if (value.empty()) return curves::curve_id::bls12_381;
  if (const auto c = curves::parse_curve(value)) return *c;
  throw std::invalid_argument("--curve must be bls12-381 or bn254, not '" + value + "'");
}

int run_inputs(const inputs_args& a) {
  const auto j = curves::visit(curve_option(a.curve), [&](auto curve) {
    return circuits::make_circuit<decltype(curve)>(a.circuit)->random_inputs(a.seed);
  });
  if (a.out.empty())
    std::printf("%s\n", j.dump(1).c_str());
  else
    io::write_json_file(a.out, j);
  return 0;
}

int run_list_circuits() {
  for (const auto& info : circuits::known_circuits())
    std::printf("%-16s %-22s %s\n", std::string(info.name).c_str(), std::string(info.params).c_str(),
                std::string(info.summary).c_str());
  return 0;
}

}  // namespace cuzk::cli
