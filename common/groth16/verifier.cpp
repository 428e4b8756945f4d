#include "groth16/verifier.hpp"

#include <array>

#include "ec/scalar_mul.hpp"
#include "pairing/pairing.hpp"

namespace cuzk::groth16 {

bool verify(const verifying_key& vk, std::span<const fr_t> public_signals, const proof& p) {
  if (vk.ic.size() != public_signals.size() + 1) return false;
  ec::g1_jacobian_t cpub = ec::g1_jacobian_t::from_affine(vk.ic[0]);  /* IC_0 + Σ s_i IC_{i+1} */
  for (std::size_t i = 0; i < public_signals.size(); ++i) cpub += ec::mul(vk.ic[i + 1], public_signals[i]);
  const std::array<pairing::g1_g2_pair, 4> pairs = {{
      {-p.a, p.b},
      {cpub.to_affine(), vk.gamma2},
      {p.c, vk.delta2},
      {vk.alpha1, vk.beta2},
  }};
  return pairing::multi_pairing<curves::bls12_381>(pairs).is_one();
}

}  // namespace cuzk::groth16
