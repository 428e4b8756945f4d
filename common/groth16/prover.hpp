// The Groth16 prover (eprint 2016/260 §3.2, in snarkjs's arrangement,
// groth16_prove.js):
//   π_A = α + Σ z_i A_i + r δ
//   π_B = β + Σ z_i B_i + s δ                        (in G2; B1 alike in G1)
//   π_C = Σ_{private i} z_i C_i + Σ h_j H_j + s π_A + r B1 − r s δ
// One orchestrator over an engine (engine.hpp): the engine computes H and
// the five sums, prove does the rest (DESIGN §5).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <type_traits>

#include "groth16/engine.hpp"
#include "groth16/keys.hpp"
#include "groth16/prove_input.hpp"

namespace cuzk::groth16 {

/* The proof of `in` (prove_input.hpp) on engine e. std::invalid_argument on
   wrong sizes and, for a coefficient-form key, on a witness with Z ∤ AB − C.
   preempted when *in.stop is set at a phase boundary. */
template <class C>
basic_proof<C> prove(basic_engine<C>& e, const basic_prove_input<C>& in, prove_timings* t = nullptr);
/* The same from its parts. */
template <class C>
basic_proof<C> prove(basic_engine<C>& e, const basic_proving_key<C>& pk, std::span<const ff::fr<C>> z,
                     std::span<const ff::fr<C>> a, std::span<const ff::fr<C>> b, std::span<const ff::fr<C>> c,
                     const std::type_identity_t<std::optional<basic_blinding<C>>>& rs = {}, prove_timings* t = nullptr,
                     const std::atomic<bool>* stop = nullptr) {
  return prove(e, basic_prove_input<C>{pk, {}, a, b, c, z, rs, stop}, t);
}
/* The same on a CPU engine in the caller's TBB arena. */
template <class C>
basic_proof<C> prove(const basic_proving_key<C>& pk, std::span<const ff::fr<C>> z, std::span<const ff::fr<C>> a,
                     std::span<const ff::fr<C>> b, std::span<const ff::fr<C>> c,
                     const std::type_identity_t<std::optional<basic_blinding<C>>>& rs = {}, prove_timings* t = nullptr);

}  // namespace cuzk::groth16
