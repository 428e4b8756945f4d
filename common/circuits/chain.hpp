// chain:size=N — x_0 = x (private), x_{i+1} = x_i^2 + i, public output x_N;
// one constraint per step. Written as circom writes its twin
// (tests/interop/circom/chain.circom): constraint i is
//   (-x_i) * (x_i) = i - x_{i+1}
// over wires 0 = one, 1 = x_N, 2 = x, 3.. = x_1 .. x_{N-1}, so the native
// matrices equal circom's .r1cs and the public signal is the same.
#pragma once

#include "circuits/circuit.hpp"

namespace cuzk::circuits {

template <class C>
class basic_chain final : public basic_circuit<C> {
 public:
  using typename basic_circuit<C>::fr;
  using typename basic_circuit<C>::constraint_system;

  struct inputs_t : inputs {
    fr x;
  };

  explicit basic_chain(std::uint64_t size);

  std::string name() const override { return "chain"; }
  std::string spec() const override;
  std::unique_ptr<inputs> parse_inputs(const nlohmann::json& j) const override;
  nlohmann::json random_inputs(std::uint64_t seed) const override;
  std::vector<fr> public_values(const inputs& in) const override;
  void synthesize(constraint_system& cs, const inputs* in) const override;
  std::uint64_t min_constraints() const override { return size_; }  // one a step

  /* x_N, directly */
  static fr evaluate(const fr& x, std::uint64_t size);

 private:
  std::uint64_t size_;
};

}  // namespace cuzk::circuits
