// A variable of a native circuit. The full assignment is
//   z = [1, input_1, ..., input_{n-1}, aux_0, ..., aux_{m-1}]
// input 0 is the constant one; the other inputs are public, the aux values
// private. As in circom/snarkjs (wire 0 = one, then public outputs, then
// public inputs, then private signals), circuits allocate their public
// outputs before their public inputs, so a native circuit and its circom twin
// number their wires alike.
#pragma once

#include <cstdint>
#include <compare>

namespace cuzk::r1cs {

struct variable {
  enum class kind : std::uint8_t { input, aux };

  kind type = kind::input;
  std::uint32_t index = 0;

  static constexpr variable one() { return {kind::input, 0}; }
  static constexpr variable input(std::uint32_t i) { return {kind::input, i}; }
  static constexpr variable aux(std::uint32_t i) { return {kind::aux, i}; }

  constexpr bool is_one() const { return type == kind::input && index == 0; }
  /* inputs before aux, then by index: the order of z */
  friend constexpr auto operator<=>(const variable&, const variable&) = default;
};

}  // namespace cuzk::r1cs
