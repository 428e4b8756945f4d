// A proof's phase timings as its job record keeps them and its log line shows them (groth16::phase_timings).
#pragma once

#include <string>

#include "groth16/engine.hpp"
#include "shm/layout.hpp"

namespace cuzk::server {

/* The record's timings: the prove call's phases (prove_timings::reported) and where it ran (gpu -1: the CPU). */
shm::partition_timings partition_timings_of(const groth16::prove_timings& t, double verify_s, int gpu) noexcept;

/* "total_ms=… h2d_ms=… … batch_add_ms=… msm_ms=… cpu_prep_ms=… verify_ms=… stage_ms=…": every phase of the
   proof log line, total first, msm (the MSMs' wall clock) before cpu_prep. */
std::string timings_log_fields(const groth16::prove_timings& t, double verify_s, double stage_s);

}  // namespace cuzk::server
