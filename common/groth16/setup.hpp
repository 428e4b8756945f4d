// A development trusted setup: one party, toxic waste from a seed or the OS
// RNG. Fine for tests and benchmarks, never for production keys.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "groth16/fixed_base_engine.hpp"
#include "groth16/keys.hpp"
#include "r1cs/matrices.hpp"

namespace cuzk::groth16 {

template <class C>
struct basic_toxic_waste {
  ff::fr<C> tau, alpha, beta, gamma, delta;

  /* Derived deterministically from a seed string, or from std::random_device. */
  static basic_toxic_waste from_seed(std::string_view seed);
  static basic_toxic_waste random();
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
template <class F>
std::vector<F> lagrange_at(const F& tau, const F& g, const F& w, std::uint64_t m, std::uint64_t first,
                           std::size_t count);

/* The H query's scalars for a domain of 2^log_n (see h_form). */
template <class C>
std::vector<ff::fr<C>> h_query_scalars(const basic_toxic_waste<C>& t, h_form h, std::uint32_t log_n);

/* α, β, δ in G1 and β, γ, δ in G2, the key's fixed points, into pk (the rest of pk untouched) */
template <class C>
void set_fixed_points(const basic_toxic_waste<C>& t, basic_fixed_base_engine<C>& e, basic_proving_key<C>& pk);

/* The proving key of the QAP of m at τ (Groth16, eprint 2016/260 §3.2):
     A_i = u_i(τ) G1, B_i = v_i(τ) G1 and G2,
     IC_i = (β u_i + α v_i + w_i)(τ) / γ G1  (i ≤ n_public),
     C_i  = (β u_i + α v_i + w_i)(τ) / δ G1  (the rest),
     H    as h selects (keys.hpp).
   Lagrange bases over the snarkjs root family, so snarkjs proves with it.
   The fixed-base multiplications run on fb (nullptr: a cpu_fixed_base_engine);
   every engine gives the same key. */
template <class C>
basic_proving_key<C> setup(const r1cs::basic_matrices<C>& m, const std::type_identity_t<basic_toxic_waste<C>>& t,
                           h_form h = h_form::odd_coset, const progress_fn& progress = {},
                           std::type_identity_t<basic_fixed_base_engine<C>>* fb = nullptr);

}  // namespace cuzk::groth16
