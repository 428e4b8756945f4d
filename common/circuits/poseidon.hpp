// Native Poseidon permutation and the 2-to-1 hash of the Merkle circuit.
#pragma once

#include <array>

#include "circuits/poseidon_params.hpp"

namespace cuzk::circuits {

/* R_F/2 full rounds, R_P partial rounds (S-box on lane 0 only), R_F/2 full
   rounds; each round: add constants, S-box x^5, multiply by the MDS matrix
   (the reference poseidonperm_x5_255_3.sage). */
std::array<fr_t, 3> poseidon_permute(const std::array<fr_t, 3>& state, const poseidon_params& p = poseidon_t3());

/* H(l, r) = permute([0, l, r])[0]: capacity lane 0 starts at zero and is the
   digest (the circomlib convention). */
fr_t poseidon_hash2(const fr_t& l, const fr_t& r);

}  // namespace cuzk::circuits
