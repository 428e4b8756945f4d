// Seconds one partition's proof takes, from measured whole proofs
// (docs/benchmarks.md), for the planner's partitions per minute.
#pragma once

#include <cstdint>
#include <string>

#include "curves/curve_id.hpp"

namespace cuzk::plan {

struct proof_time {
  double seconds = 0;  // one proof, key resident; 0: no measurement to go by
  std::string source;  // where the figure comes from, for people
};

/* A proof of domain 2^log_domain on a GPU (device: its name, e.g. "NVIDIA
   H200"; with_copies: the key keeps shifted copies of its bases). Measured on
   the H200 with the chain circuit (a full-width witness: the slowest kind;
   boolean-heavy witnesses run 3–4× faster), interpolated between measured
   domains log-log, extrapolated from the nearest two. */
proof_time gpu_proof_time(curves::curve_id curve, unsigned log_domain, const std::string& device, bool with_copies);

/* The same with the CPU backend on `cores` cores: the measurement taken on
   the nearest core count, scaled linearly by cores. */
proof_time cpu_proof_time(curves::curve_id curve, unsigned log_domain, unsigned cores);

}  // namespace cuzk::plan
