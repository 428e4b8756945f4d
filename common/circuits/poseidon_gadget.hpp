// Poseidon in the circuit, over the same parameters as poseidon.hpp. Each
// S-box x^5 costs three constraints (x2 = x x, x4 = x2 x2, x5 = x4 x); round
// constants and the MDS layer are linear and stay in the linear combinations.
// Width 3, R_F = 8, R_P = 57: (8 * 3 + 57) * 3 = 243 constraints a permutation.
#pragma once

#include <array>

#include "circuits/num.hpp"
#include "circuits/poseidon_params.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::circuits {

template <class C>
std::array<basic_num<C>, 3> poseidon_permute(r1cs::basic_constraint_system<C>& cs, std::array<basic_num<C>, 3> state,
                                             const basic_poseidon_params<C>& p = poseidon_t3<C>());

/* permute([0, l, r])[0], as poseidon_hash2 */
template <class C>
basic_num<C> poseidon_hash2(r1cs::basic_constraint_system<C>& cs, const basic_num<C>& l, const basic_num<C>& r);

}  // namespace cuzk::circuits
