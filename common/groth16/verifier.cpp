#include "groth16/verifier.hpp"

#include <array>

#include "ec/scalar_mul.hpp"
#include "pairing/pairing.hpp"
#include "curves/dispatch.hpp"

namespace cuzk::groth16 {

template <class C>
bool verify(const basic_verifying_key<C>& vk, std::span<const ff::fr<C>> public_signals, const basic_proof<C>& p) {
  if (vk.ic.size() != public_signals.size() + 1) return false;
  auto cpub = ec::g1_jacobian<C>::from_affine(vk.ic[0]); /* IC_0 + Σ s_i IC_{i+1} */
  for (std::size_t i = 0; i < public_signals.size(); ++i) cpub += ec::mul(vk.ic[i + 1], public_signals[i]);
  const std::array<pairing::g1_g2_pair_of<C>, 4> pairs = {{
      {-p.a, p.b},
      {cpub.to_affine(), vk.gamma2},
      {p.c, vk.delta2},
      {vk.alpha1, vk.beta2},
  }};
  return pairing::multi_pairing<C>(pairs).is_one();
}

#define CUZK_INSTANTIATE(C) \
  template bool verify(const basic_verifying_key<C>&, std::span<const ff::fr<C>>, const basic_proof<C>&);
CUZK_CURVES(CUZK_INSTANTIATE)
#undef CUZK_INSTANTIATE

}  // namespace cuzk::groth16
