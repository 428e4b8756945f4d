// poseidon-merkle:depth=D — knowledge of a leaf and a path to a public root
// in a binary Merkle tree hashed with Poseidon (poseidon.hpp).
//   inputs {"leaf": dec, "index": dec, "path": [dec x D]}, all private
//   public: the root
// The index is decomposed into D boolean wires (b (1 - b) = 0, and
// sum 2^i b_i = index); bit i (least significant first) says whether the
// node at level i is the right child: the pair hashed there is
//   left = node + b (sibling - node),  right = node + sibling - left.
// Constraints: D (bits) + 1 (index) + D (select) + 243 D (Poseidon) + 1 (root).
#pragma once

#include <span>

#include "circuits/circuit.hpp"

namespace cuzk::circuits {

class poseidon_merkle final : public circuit {
 public:
  struct inputs_t : inputs {
    fr_t leaf;
    std::uint64_t index = 0;
    std::vector<fr_t> path;
  };

  explicit poseidon_merkle(unsigned depth);

  std::string name() const override { return "poseidon-merkle"; }
  std::string spec() const override;
  std::unique_ptr<inputs> parse_inputs(const nlohmann::json& j) const override;
  nlohmann::json random_inputs(std::uint64_t seed) const override;
  std::vector<fr_t> public_values(const inputs& in) const override;
  void synthesize(r1cs::constraint_system& cs, const inputs* in) const override;

  /* The root, natively. */
  static fr_t root(const fr_t& leaf, std::uint64_t index, std::span<const fr_t> path);

 private:
  unsigned depth_;
};

}  // namespace cuzk::circuits
