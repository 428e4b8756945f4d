// The Groth16 verifier: one multi-pairing,
//   e(−π_A, π_B) · e(IC_0 + Σ s_i IC_i, γ) · e(π_C, δ) · e(α, β) = 1.
#pragma once

#include <span>

#include "groth16/keys.hpp"

namespace cuzk::groth16 {

/* False for a wrong count of public signals or any failed check. Points are
   assumed decoded with subgroup checks (io/ does so). */
template <class C>
bool verify(const basic_verifying_key<C>& vk, std::span<const ff::fr<C>> public_signals, const basic_proof<C>& p);

extern template bool verify(const basic_verifying_key<curves::bls12_381>&, std::span<const ff::fr<curves::bls12_381>>,
                            const basic_proof<curves::bls12_381>&);
extern template bool verify(const basic_verifying_key<curves::bn254>&, std::span<const ff::fr<curves::bn254>>,
                            const basic_proof<curves::bn254>&);

}  // namespace cuzk::groth16
