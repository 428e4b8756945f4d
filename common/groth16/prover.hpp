// The Groth16 prover (eprint 2016/260 §3.2, in snarkjs's arrangement,
// groth16_prove.js):
//   π_A = α + Σ z_i A_i + r δ
//   π_B = β + Σ z_i B_i + s δ                        (in G2; B1 alike in G1)
//   π_C = Σ_{private i} z_i C_i + Σ h_j H_j + s π_A + r B1 − r s δ
// One orchestrator over an engine (engine.hpp): the engine computes H and
// the five sums, prove does the rest (DESIGN §5).
#pragma once

#include <optional>
#include <span>
#include <string_view>

#include "groth16/engine.hpp"
#include "groth16/keys.hpp"

namespace cuzk::groth16 {

/* Fixed r and s make the proof a function of its inputs alone, so backends
   can be compared bit for bit (DESIGN §5); otherwise both are random. */
struct blinding {
  fr_t r, s;
  static blinding random();
  /* "R,S": two decimal numbers below r; nullopt otherwise. */
  static std::optional<blinding> parse(std::string_view text);
};

/* a, b, c: the evaluations <A_i,z>, <B_i,z>, <C_i,z> of every row of the
   domain (domain_size each; evaluations.hpp builds them), left unchanged.
   z: the full witness (n_vars). std::invalid_argument on wrong sizes and,
   for a coefficient-form key, on a witness with Z ∤ AB − C. */
proof prove(engine& e, const proving_key& pk, std::span<const fr_t> z, std::span<const fr_t> a,
            std::span<const fr_t> b, std::span<const fr_t> c, const std::optional<blinding>& rs = {},
            prove_timings* t = nullptr);
/* The same on a CPU engine in the caller's TBB arena. */
proof prove(const proving_key& pk, std::span<const fr_t> z, std::span<const fr_t> a, std::span<const fr_t> b,
            std::span<const fr_t> c, const std::optional<blinding>& rs = {}, prove_timings* t = nullptr);

}  // namespace cuzk::groth16
