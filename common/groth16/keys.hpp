// Groth16 keys and proofs (Groth, eprint 2016/260), laid out as snarkjs's
// .zkey holds them so a key read from one round-trips exactly. The proving
// key is BLS12-381's so far; verifying keys and proofs are of either curve.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "curves/bn254.hpp"
#include "ec/config.hpp"
#include "ff/fr.hpp"

namespace cuzk::groth16 {

using ec::g1_affine_t;
using ec::g2_affine_t;
using ff::fr_t;

/* How the H query turns (a·b − c) into the quotient's contribution (DESIGN §5). */
enum class h_form : std::uint8_t {
  odd_coset = 0,    // snarkjs: evaluations on ω_2n·<ω>, H_i = L^{2n}_{2i+1}(τ)/δ · G1, n points
  coefficient = 1,  // bellman: coefficients of h, H_i = τ^i Z(τ)/δ · G1, n − 1 points
};

/* The bases' bytes as a .zkey holds them (section 5 to 9: Montgomery
   little-endian x ‖ y, the point at infinity all zero, which is also the
   layout the CUDA kernels read), where the key was read from memory that
   `owner` keeps mapped (an SRS region): a GPU uploads straight from there. */
struct mapped_bases {
  std::shared_ptr<const void> owner;  // null: not mapped; upload from the parsed points
  std::span<const std::uint8_t> a, b1, b2, c, h;
  /* section 4's records (after the count) when they were left undecoded:
     evaluate_from_coefs reads and checks them where it uses them */
  std::span<const std::uint8_t> coefs;
};

/* One nonzero entry of the A or B matrix (snarkjs .zkey section 4). */
struct matrix_coef {
  std::uint32_t matrix;      // 0 = A, 1 = B
  std::uint32_t constraint;  // row, < domain_size
  std::uint32_t signal;      // column, < n_vars
  fr_t value;
};

template <class C>
struct basic_verifying_key {
  using curve = C;
  ec::g1_affine<C> alpha1;
  ec::g2_affine<C> beta2, gamma2, delta2;
  std::vector<ec::g1_affine<C>> ic;  // n_public + 1
};
using verifying_key = basic_verifying_key<curves::bls12_381>;

struct proving_key {
  std::uint32_t n_vars = 0;       // witness length, the constant ONE included
  std::uint32_t n_public = 0;     // public signals, ONE excluded
  std::uint32_t domain_size = 0;  // n, a power of two ≥ constraints + n_public + 1
  h_form h = h_form::odd_coset;
  g1_affine_t alpha1, beta1, delta1;
  g2_affine_t beta2, gamma2, delta2;
  std::vector<g1_affine_t> ic;          // n_public + 1
  std::vector<matrix_coef> coefs;       // A and B; row n_constraints + s holds A[s] = 1 (s ≤ n_public)
  std::vector<g1_affine_t> a, b1;       // n_vars: u_i(τ), v_i(τ)
  std::vector<g2_affine_t> b2;          // n_vars: v_i(τ)
  std::vector<g1_affine_t> c;           // n_vars − n_public − 1: (β u_i + α v_i + w_i)(τ)/δ
  std::vector<g1_affine_t> h_query;     // see h_form
  mapped_bases mapped;

  /* bases per query: the decoded points, or (a key read without decoding
     them, io::read_zkey_mapped) the mapped sections' */
  std::size_t a_count() const { return a.empty() ? mapped.a.size() / 96 : a.size(); }
  std::size_t b1_count() const { return b1.empty() ? mapped.b1.size() / 96 : b1.size(); }
  std::size_t b2_count() const { return b2.empty() ? mapped.b2.size() / 192 : b2.size(); }
  std::size_t c_count() const { return c.empty() ? mapped.c.size() / 96 : c.size(); }
  std::size_t h_count() const { return h_query.empty() ? mapped.h.size() / 96 : h_query.size(); }
  /* the points are in a, b1, b2, c, h_query (else only in the mapped bytes) */
  bool points_decoded() const { return a.size() == n_vars; }

  verifying_key vk() const { return {alpha1, beta2, gamma2, delta2, ic}; }
  std::uint32_t log_domain() const { return (std::uint32_t)__builtin_ctz(domain_size); }
};

template <class C>
struct basic_proof {
  using curve = C;
  ec::g1_affine<C> a;
  ec::g2_affine<C> b;
  ec::g1_affine<C> c;
};
using proof = basic_proof<curves::bls12_381>;

}  // namespace cuzk::groth16
