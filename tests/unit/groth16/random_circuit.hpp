// Random satisfiable R1CS instances for the prover tests: each constraint
// multiplies two random linear combinations of earlier wires into a fresh
// wire, so any random choice of the free inputs gives a witness.
#pragma once

#include <random>
#include <vector>

#include "r1cs/matrices.hpp"
#include "random.hpp"

namespace cuzk::test {

template <class C = curves::bls12_381>
struct random_instance {
  r1cs::basic_matrices<C> m;
  std::vector<ff::fr<C>> z;
};

/* n_public public wires (after the one), n_free private inputs, then one
   product wire per constraint; public wires are the last products. About
   bits_share of the free inputs are 0 or 1 (witness-shaped, for the scalar
   split), the rest uniform. */
template <class C = curves::bls12_381>
random_instance<C> make_random_instance(std::mt19937_64& rng, std::uint32_t n_constraints, std::uint32_t n_public,
                                        std::uint32_t n_free, double bits_share = 0);

}  // namespace cuzk::test
