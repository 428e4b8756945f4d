// Native circuits by name: make_circuit("chain:size=65536").
//   chain            size=N (default 1024)      chain.hpp
//   poseidon-merkle  depth=D (default 20)       poseidon_merkle.hpp
//   sha256           bytes=L or blocks=N (default blocks=1)   sha256_preimage.hpp
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "circuits/circuit.hpp"

namespace cuzk::circuits {

struct circuit_info {
  std::string_view name;
  std::string_view params;   // "size=N"
  std::string_view summary;  // one line
};

/* circuit_error for an unknown name, parameter or value. */
std::unique_ptr<circuit> make_circuit(std::string_view spec);

const std::vector<circuit_info>& known_circuits();

}  // namespace cuzk::circuits
