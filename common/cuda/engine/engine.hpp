// The CUDA engine (DESIGN §5): H by device NTTs and all five MSMs on the GPU,
// behind the groth16::engine interface the CPU engine also implements. The
// orchestrator (groth16::prove) keeps blinding and assembly.
#pragma once

#include <memory>

#include "groth16/engine.hpp"

namespace cuzk::cuda {

struct engine_options {
  int device = 0;
  /* the five MSMs on five streams at once, or one after another on one
     stream (each MSM alone already fills the GPU; docs/benchmarks.md) */
  bool overlap_msms = false;
};

/* Throws cuda::error when the device cannot be used. */
std::unique_ptr<groth16::engine> make_engine(const engine_options& opt = {});

}  // namespace cuzk::cuda
