// The CUDA backend: a thin adapter over common/cuda's engine (DESIGN §5),
// compiled only when the CUDA engine is built (CUZK_CUDA_BACKEND).
#pragma once

#include <memory>

#include "backend/backend.hpp"
#include "backend/fault.hpp"

namespace cuzk::server {

/* CUDA devices present; 0 when there is no driver or none. */
int cuda_device_count() noexcept;

/* Throws std::runtime_error when the device cannot be used. */
std::unique_ptr<prover_backend> make_cuda_backend(const backend_options& opt, fault_plan faults);

}  // namespace cuzk::server
