// What the engine conformance tests share: the engines under test (the CPU
// engine, which needs no device, and the CUDA engine) for a curve C, the
// largest size to try, and the engine of the keys' fixed-base multiplications.
#pragma once

#include <cstdlib>
#include <memory>

#include "cuda/device.hpp"
#include "cuda/engine/engine.hpp"
#include "cuda/setup/fixed_base_engine.hpp"
#include "groth16/engine.hpp"
#include "groth16/fixed_base_engine.hpp"

namespace cuzk::test {

struct cpu_kind {
  static constexpr bool needs_gpu = false;
  static constexpr const char* name = "Cpu";
  template <class C>
  static std::unique_ptr<groth16::basic_engine<C>> make() {
    return groth16::make_cpu_engine<C>();
  }
};
struct cuda_kind {
  static constexpr bool needs_gpu = true;
  static constexpr const char* name = "Cuda";
  template <class C>
  static std::unique_ptr<groth16::basic_engine<C>> make() {
    return cuda::make_engine<C>();
  }
};

/* the CUDA engine with shifted copies of the MSM bases, as many as fit */
struct cuda_shifted_kind {
  static constexpr bool needs_gpu = true;
  static constexpr const char* name = "CudaShifted";
  template <class C>
  static std::unique_ptr<groth16::basic_engine<C>> make() {
    return cuda::make_engine<C>({.msm_copies = -1});
  }
};

/* Sizes up to 2^(CUZK_GPU_MAX_LOG) constraints (default 12, CI's CPU engine against itself; the GPU run sets 20). */
inline unsigned max_log() {
  const char* v = std::getenv("CUZK_GPU_MAX_LOG");
  return v ? unsigned(std::atoi(v)) : 12;
}

/* The keys' fixed-base multiplications on the GPU when there is one (the
   setup's own test shows its keys are the CPU's byte for byte). */
template <class C>
groth16::basic_fixed_base_engine<C>* setup_engine() {
  static std::unique_ptr<groth16::basic_fixed_base_engine<C>> fb =
      cuda::device_count() > 0 ? cuda::make_fixed_base_engine<C>()
                               : std::make_unique<groth16::basic_cpu_fixed_base_engine<C>>();
  return fb.get();
}

}  // namespace cuzk::test
