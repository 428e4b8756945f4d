// poseidon-merkle:depth=D — knowledge of a leaf and a path to a public root
// in a binary Merkle tree hashed with Poseidon (poseidon.hpp); on BN254 the
// root is circomlib's, poseidon([left, right]) at each level.
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

template <class C>
class basic_poseidon_merkle final : public basic_circuit<C> {
 public:
  using typename basic_circuit<C>::fr;
  using typename basic_circuit<C>::constraint_system;

  struct inputs_t : inputs {
    fr leaf;
    std::uint64_t index = 0;
    std::vector<fr> path;
  };

  explicit basic_poseidon_merkle(unsigned depth);

  std::string name() const override { return "poseidon-merkle"; }
  std::string spec() const override;
  std::unique_ptr<inputs> parse_inputs(const nlohmann::json& j) const override;
  nlohmann::json random_inputs(std::uint64_t seed) const override;
  std::vector<fr> public_values(const inputs& in) const override;
  void synthesize(constraint_system& cs, const inputs* in) const override;
  std::uint64_t min_constraints() const override { return 245ull * depth_; }  // 245 a level, plus two

  /* The root, natively. */
  static fr root(const fr& leaf, std::uint64_t index, std::span<const fr> path);

 private:
  unsigned depth_;
};

}  // namespace cuzk::circuits
