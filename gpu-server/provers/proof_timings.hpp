// A proof's phase timings as the job record keeps them (shm::partition_timings).
#pragma once

#include <string>

#include "groth16/engine.hpp"
#include "proto/message.hpp"
#include "shm/layout.hpp"

namespace cuzk::server {

/* Microseconds of each phase; cpu_prep = split + assemble; total is the
   prove call's (verify not included); gpu = -1 for the CPU. */
shm::partition_timings partition_timings_of(const groth16::prove_timings& t, double verify_s, int gpu) noexcept;

/* The job record's timings as status sends them. */
proto::partition_timings to_proto(const shm::partition_timings& t) noexcept;

/* "total_ms=… h2d_ms=… … verify_ms=… stage_ms=…": every phase of the proof log line. */
std::string timings_log_fields(const groth16::prove_timings& t, double verify_s, double stage_s);

}  // namespace cuzk::server
