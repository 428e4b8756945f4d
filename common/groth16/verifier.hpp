// The Groth16 verifier: one multi-pairing,
//   e(−π_A, π_B) · e(IC_0 + Σ s_i IC_i, γ) · e(π_C, δ) · e(α, β) = 1.
#pragma once

#include <span>

#include "groth16/keys.hpp"

namespace cuzk::groth16 {

/* False for a wrong count of public signals or any failed check. Points are
   assumed decoded with subgroup checks (io/ does so). */
bool verify(const verifying_key& vk, std::span<const fr_t> public_signals, const proof& p);

}  // namespace cuzk::groth16
