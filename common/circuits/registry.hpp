// Native circuits by name: make_circuit("chain:size=65536") over BLS12-381's
// Fr, make_circuit<curves::bn254>(spec) over BN254's; every circuit exists
// for both curves.
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
template <class C = curves::bls12_381>
std::unique_ptr<basic_circuit<C>> make_circuit(std::string_view spec);

const std::vector<circuit_info>& known_circuits();

}  // namespace cuzk::circuits
