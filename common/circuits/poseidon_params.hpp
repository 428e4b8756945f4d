// Poseidon over the scalar field Fr of curve C with the x^5 S-box (Grassi,
// Khovratovich, Rechberger, Roy, Schofnegger, "Poseidon", eprint 2019/458).
//
// Width t = 3 (2-to-1 hashing), R_F = 8 full rounds, R_P = 57 partial rounds:
// the paper's round numbers for a 254- or 255-bit prime field, alpha = 5,
// 128-bit security, with its security margin (+2 R_F, +7.5% R_P), as computed
// by the reference calc_round_numbers.py and listed in
// generate_parameters_grain.sage ("GF(p), alpha=5, N = 765, n = 255, t = 3,
// R_F = 8, R_P = 57"); on BLS12-381 the instance is the authors'
// poseidonperm_x5_255_3, on BN254 (n = 254) circomlib's Poseidon of two
// inputs, whose constants the same script generated.
//
// Round constants and MDS matrix come from the paper's procedure (grain_lfsr),
// with n = the bit length of r (255 on BLS12-381, 254 on BN254):
// (R_F + R_P) t constants of n bits, each redrawn while >= r; then 2t more
// draws, reduced mod r, pairwise distinct, as x_0..x_{t-1}, y_0..y_{t-1} of
// the Cauchy matrix M[i][j] = 1 / (x_i + y_j). The script also screens M
// against invariant-subspace attacks (its algorithms 1-3) and draws again on
// failure; that screen is not repeated here, and the known-answer tests
// (the authors' vector on BLS12-381, circomlibjs on BN254) show the first
// draw is the reference matrix.
#pragma once

#include <vector>

#include "curves/bn254.hpp"
#include "ff/fr.hpp"

namespace cuzk::circuits {

using ff::fr_t;

template <class C>
struct basic_poseidon_params {
  using fr = ff::fr<C>;
  unsigned t = 0, r_f = 0, r_p = 0;
  std::vector<fr> round_constants;  // (r_f + r_p) * t, round by round
  std::vector<fr> mds;              // t x t, row-major: s'_i = sum_j mds[i t + j] s_j

  const fr& rc(unsigned round, unsigned i) const { return round_constants[round * t + i]; }
  const fr& m(unsigned i, unsigned j) const { return mds[i * t + j]; }
  unsigned rounds() const { return r_f + r_p; }
};

/* The paper's generator for C's Fr, x^5 S-box. */
template <class C = curves::bls12_381>
basic_poseidon_params<C> generate_poseidon_params(unsigned t, unsigned r_f, unsigned r_p);

/* t = 3, R_F = 8, R_P = 57, generated once per curve. */
template <class C = curves::bls12_381>
const basic_poseidon_params<C>& poseidon_t3();

}  // namespace cuzk::circuits
