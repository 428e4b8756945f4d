// The Groth16 verifier: one multi-pairing,
//   e(−π_A, π_B) · e(IC_0 + Σ s_i IC_i, γ) · e(π_C, δ) · e(α, β) = 1.
#pragma once

#include <span>

#include "groth16/keys.hpp"
#include "curves/dispatch.hpp"

namespace cuzk::groth16 {

/* False for a wrong count of public signals or any failed check. Points are
   assumed decoded with subgroup checks (io/ does so). */
template <class C>
bool verify(const basic_verifying_key<C>& vk, std::span<const ff::fr<C>> public_signals, const basic_proof<C>& p);

#define CUZK_INSTANTIATE(C) \
  extern template bool verify(const basic_verifying_key<C>&, std::span<const ff::fr<C>>, const basic_proof<C>&);
CUZK_CURVES(CUZK_INSTANTIATE)
#undef CUZK_INSTANTIATE

}  // namespace cuzk::groth16
