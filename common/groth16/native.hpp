// Native circuits end to end: setup from a circuit's recorded matrices, and
// synthesis straight into the prover's a, b, c and witness buffers (the
// memory a shared-memory slot will provide). Over either curve; the circuit's
// curve is the key's.
#pragma once

#include <span>
#include <type_traits>
#include <vector>

#include <tbb/parallel_invoke.h>

#include "circuits/circuit.hpp"
#include "groth16/keys.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"

namespace cuzk::groth16 {

/* Where one proof's a, b, c (domain_size each) and z (n_vars) live: heap
   vectors (prover_buffers) or a shared-memory slot. */
template <class C>
struct basic_buffer_view {
  std::span<ff::fr<C>> a, b, c, z;
};

/* The four zeroed at once, on the arena's threads: first touches of fresh
   memory (page faults, the kernel clearing each page) are most of their cost. */
template <class C>
struct basic_prover_buffers {
  std::vector<ff::fr<C>> a, b, c, z;
  explicit basic_prover_buffers(const basic_proving_key<C>& pk) {
    tbb::parallel_invoke([&] { a.resize(pk.domain_size); }, [&] { b.resize(pk.domain_size); },
                         [&] { c.resize(pk.domain_size); }, [&] { z.resize(pk.n_vars); });
  }
  basic_buffer_view<C> view() { return {a, b, c, z}; }
};

template <class C>
basic_proving_key<C> setup_circuit(const circuits::basic_circuit<C>& c,
                                   const std::type_identity_t<basic_toxic_waste<C>>& t, h_form h = h_form::odd_coset,
                                   const progress_fn& progress = {},
                                   std::type_identity_t<basic_fixed_base_engine<C>>* fb = nullptr);

/* Synthesizes c on `in` into buf (public rows filled). Throws
   circuits::circuit_error naming the first unsatisfied constraint, and
   std::invalid_argument when the key was made for another circuit. */
template <class C>
void synthesize_into(const basic_proving_key<C>& pk, const circuits::basic_circuit<C>& c, const circuits::inputs& in,
                     std::type_identity_t<basic_buffer_view<C>> buf);
template <class C>
void synthesize_into(const basic_proving_key<C>& pk, const circuits::basic_circuit<C>& c, const circuits::inputs& in,
                     basic_prover_buffers<C>& buf) {
  synthesize_into<C>(pk, c, in, buf.view());
}

}  // namespace cuzk::groth16
