// The Groth16 prover on the CPU (eprint 2016/260 §3.2, in snarkjs's
// arrangement, groth16_prove.js):
//   π_A = α + Σ z_i A_i + r δ
//   π_B = β + Σ z_i B_i + s δ                        (in G2; B1 alike in G1)
//   π_C = Σ_{private i} z_i C_i + Σ h_j H_j + s π_A + r B1 − r s δ
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

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

/* Which of the prover's stages took how long, in seconds. */
struct prove_timings {
  double h = 0, msm_g1 = 0, msm_g2 = 0, total = 0;
};

/* a, b, c: the evaluations <A_i,z>, <B_i,z>, <C_i,z> of every row of the
   domain (domain_size each; clobbered). z: the full witness (n_vars). */
proof prove(const proving_key& pk, std::span<const fr_t> z, std::span<fr_t> a, std::span<fr_t> b,
            std::span<fr_t> c, const std::optional<blinding>& rs = std::nullopt, prove_timings* timings = nullptr);

/* Rows n_constraints .. n_constraints + n_public hold A = z_s (B = C = 0);
   the rows above are zero. For evaluations a synthesis wrote per constraint. */
void fill_public_rows(std::uint64_t n_constraints, std::uint32_t n_public, std::span<const fr_t> z,
                      std::span<fr_t> a, std::span<fr_t> b, std::span<fr_t> c);

/* snarkjs's way for a .zkey and a witness alone (it has no C matrix):
   a, b from the key's coefficients, c = a ∘ b. A witness that does not
   satisfy the circuit then yields a proof that fails verification. */
void evaluate_from_coefs(const proving_key& pk, std::span<const fr_t> z, std::span<fr_t> a, std::span<fr_t> b,
                         std::span<fr_t> c);

}  // namespace cuzk::groth16
