// The backend's GPUs as a status reply carries them, within the decoder's rules.
#pragma once

#include <vector>

#include "proto/message.hpp"

namespace cuzk::server {

/* The backend's report (prover_backend::gpus) fitted to the rules: at most proto::max_gpus devices,
   busy_ratio clamped to 0..1 (NaN: 0), mem_free to mem_total, names to their limit. Resident key ids (with their
   shifted copies and bytes) only with_keys (operators) and at most proto::max_resident_keys per device and
   gpu_key_bytes in all, so the reply stays far below the frame limit. */
std::vector<proto::gpu_status> gpu_report(std::vector<proto::gpu_status> gpus, bool with_keys);

inline constexpr std::size_t gpu_key_bytes = 16 * 1024;

}  // namespace cuzk::server
