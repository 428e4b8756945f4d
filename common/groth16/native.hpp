// Native circuits end to end: setup from a circuit's recorded matrices, and
// synthesis straight into the prover's a, b, c and witness buffers (the
// memory a shared-memory slot will provide).
#pragma once

#include <span>
#include <vector>

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
using buffer_view = basic_buffer_view<curves::bls12_381>;

struct prover_buffers {
  std::vector<fr_t> a, b, c, z;
  explicit prover_buffers(const proving_key& pk)
      : a(pk.domain_size), b(pk.domain_size), c(pk.domain_size), z(pk.n_vars) {}
  buffer_view view() { return {a, b, c, z}; }
};

proving_key setup_circuit(const circuits::circuit& c, const toxic_waste& t, h_form h = h_form::odd_coset,
                          const progress_fn& progress = {}, fixed_base_engine* fb = nullptr);

/* Synthesizes c on `in` into buf (public rows filled). Throws
   circuits::circuit_error naming the first unsatisfied constraint, and
   std::invalid_argument when the key was made for another circuit. */
void synthesize_into(const proving_key& pk, const circuits::circuit& c, const circuits::inputs& in,
                     buffer_view buf);
inline void synthesize_into(const proving_key& pk, const circuits::circuit& c, const circuits::inputs& in,
                            prover_buffers& buf) {
  synthesize_into(pk, c, in, buf.view());
}

}  // namespace cuzk::groth16
