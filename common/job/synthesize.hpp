// Synthesis of one job partition straight into caller memory, a shared-memory
// slot in the service: native circuits through proving_cs, circom jobs from
// their .wtns (a, b, c by the .r1cs matrices when given, else by the key's
// A and B coefficients with c = a·b, as snarkjs does).
#pragma once

#include <cstdint>

#include "groth16/keys.hpp"
#include "groth16/native.hpp"
#include "job/spec.hpp"

namespace cuzk::job {

struct synth_stats {
  std::uint64_t n_constraints = 0;  // rows written before the public-input rows
  std::uint64_t n_witness = 0;      // elements of z written
};

/* buf: a, b, c of pk.domain_size and z of pk.n_vars elements. Throws
   circuits::circuit_error naming an unsatisfied constraint, job_error for
   inputs, files or sizes that do not fit the key. */
synth_stats synthesize(const groth16::proving_key& pk, const spec& s, std::uint32_t partition,
                       groth16::buffer_view buf);

/* The public signals z[1..n_public] of a synthesized witness. */
std::vector<groth16::fr_t> public_signals(const groth16::proving_key& pk, groth16::buffer_view buf);

}  // namespace cuzk::job
