// A development trusted setup: one party, toxic waste from a seed or the OS
// RNG. Fine for tests and benchmarks, never for production keys.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "groth16/fixed_base_engine.hpp"
#include "groth16/keys.hpp"
#include "r1cs/matrices.hpp"

namespace cuzk::groth16 {

struct toxic_waste {
  fr_t tau, alpha, beta, gamma, delta;

  /* Derived deterministically from a seed string, or from std::random_device. */
  static toxic_waste from_seed(std::string_view seed);
  static toxic_waste random();
};

/* Progress for long steps: (what, done, total). */
using progress_fn = std::function<void(std::string_view, std::uint64_t, std::uint64_t)>;

/* The smallest power of two above constraints + public signals: room for the
   constraints and the rows A[n_c + s] = z_s that make the public inputs'
   polynomials independent (snarkjs zkey_new.js). */
std::uint32_t domain_size_for(std::uint64_t n_constraints, std::uint32_t n_public);

/* L_j(τ) = x_j (τ^m − 1) / (m (τ − x_j)) for the points x_j = g w^j of a
   domain of size m (g w^j runs over all m-th roots of unity when g^m = 1),
   sampled at j = first .. first + count − 1. */
std::vector<fr_t> lagrange_at(const fr_t& tau, const fr_t& g, const fr_t& w, std::uint64_t m, std::uint64_t first,
                              std::size_t count);

/* The H query's scalars for a domain of 2^log_n (see h_form). */
std::vector<fr_t> h_query_scalars(const toxic_waste& t, h_form h, std::uint32_t log_n);

/* The proving key of the QAP of m at τ (Groth16, eprint 2016/260 §3.2):
     A_i = u_i(τ) G1, B_i = v_i(τ) G1 and G2,
     IC_i = (β u_i + α v_i + w_i)(τ) / γ G1  (i ≤ n_public),
     C_i  = (β u_i + α v_i + w_i)(τ) / δ G1  (the rest),
     H    as h selects (keys.hpp).
   Lagrange bases over the snarkjs root family, so snarkjs proves with it.
   The fixed-base multiplications run on fb (nullptr: a cpu_fixed_base_engine);
   every engine gives the same key. */
proving_key setup(const r1cs::matrices& m, const toxic_waste& t, h_form h = h_form::odd_coset,
                  const progress_fn& progress = {}, fixed_base_engine* fb = nullptr);

}  // namespace cuzk::groth16
