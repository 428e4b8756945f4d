// Building a proof's evaluations a, b, c (synthesis, not proving): the rows
// of <A_i, z>, <B_i, z>, <C_i, z> on the domain that groth16::prove takes.
#pragma once

#include <cstdint>
#include <span>

#include "groth16/keys.hpp"

namespace cuzk::groth16 {

/* Rows n_constraints .. n_constraints + n_public hold A = z_s (B = C = 0);
   the rows above are zero. For evaluations a synthesis wrote per constraint. */
template <class C = curves::bls12_381>
void fill_public_rows(std::uint64_t n_constraints, std::uint32_t n_public, std::span<const ff::fr<C>> z,
                      std::span<ff::fr<C>> a, std::span<ff::fr<C>> b, std::span<ff::fr<C>> c);

/* snarkjs's way for a .zkey and a witness alone (it has no C matrix):
   a, b from the key's coefficients, c = a ∘ b. A witness that does not
   satisfy the circuit then yields a proof that fails verification. */
template <class C>
void evaluate_from_coefs(const basic_proving_key<C>& pk, std::span<const ff::fr<C>> z, std::span<ff::fr<C>> a,
                         std::span<ff::fr<C>> b, std::span<ff::fr<C>> c);

}  // namespace cuzk::groth16
