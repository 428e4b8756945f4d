// Native Poseidon permutation and the 2-to-1 hash of the Merkle circuit, over
// the scalar field of curve C (BLS12-381 where unnamed).
#pragma once

#include <array>

#include "circuits/poseidon_params.hpp"

namespace cuzk::circuits {

/* R_F/2 full rounds, R_P partial rounds (S-box on lane 0 only), R_F/2 full
   rounds; each round: add constants, S-box x^5, multiply by the MDS matrix
   (the reference poseidonperm_x5_255_3.sage). */
template <class C = curves::bls12_381>
std::array<ff::fr<C>, 3> poseidon_permute(const std::array<ff::fr<C>, 3>& state,
                                          const basic_poseidon_params<C>& p = poseidon_t3<C>());

/* H(l, r) = permute([0, l, r])[0]: capacity lane 0 starts at zero and is the
   digest (the circomlib convention: on BN254 this is circomlibjs's poseidon([l, r])). */
template <class C = curves::bls12_381>
ff::fr<C> poseidon_hash2(const ff::fr<C>& l, const ff::fr<C>& r);

}  // namespace cuzk::circuits
