// One FILLED slot's proof, as the loop hands it to a prover thread and as
// the thread hands it back.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "groth16/engine.hpp"
#include "groth16/prover.hpp"
#include "job/any_key.hpp"
#include "job/spec.hpp"
#include "shm/job_table.hpp"
#include "shm/layout.hpp"

namespace cuzk::server {

struct proof_job {
  std::uint64_t slot, gen;
  shm::job_ref job;
  std::uint32_t partition;
  job::any_key pk;  // from the key cache when the loop starts the proof
  std::string key_id;
  std::optional<job::blinding_bytes> blinding;  // r ‖ s, checked below the key's r at Submit
  std::shared_ptr<std::atomic<bool>> stop = std::make_shared<std::atomic<bool>>(false);  // set: preempted
};

struct proof_done {
  proof_job what;
  std::vector<std::uint8_t> result;  // empty on error
  std::string error;
  std::uint64_t start_ns, end_ns;
  groth16::prove_timings timings;
  double stage = 0;                  // heap staging (--no-register)
  std::optional<bool> device_fault;  // a device error: false transient (retried), true sticky (the server exits)
  double verify = 0;                 // seconds of the self-verification
  int gpu = -1;                      // the device that proved it (prove_output::gpu), -1 on the CPU
  int worker = 0;                    // that device's proving worker (prove_output::worker)
  bool streamed = false;             // its key's bases were streamed to the GPU
  bool preempted = false;            // stopped at a phase boundary for a critical proof: the slot is FILLED again
};

// A proof's phase timings as its job record keeps them and its log line shows them (groth16::phase_timings).

/* The record's timings: the prove call's phases (prove_timings::reported) and where it ran (gpu -1: the CPU). */
shm::partition_timings partition_timings_of(const groth16::prove_timings& t, double verify_s, int gpu) noexcept;

/* "total_ms=… h2d_ms=… … batch_add_ms=… msm_ms=… cpu_prep_ms=… verify_ms=… stage_ms=…": every phase of the
   proof log line, total first, msm (the MSMs' wall clock) before cpu_prep. */
std::string timings_log_fields(const groth16::prove_timings& t, double verify_s, double stage_s);

}  // namespace cuzk::server
