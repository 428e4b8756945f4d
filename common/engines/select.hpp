// Choosing the engine a proof runs on: --backend cpu|cuda|auto. Beside the
// server's CUDA backend, the one place outside common/cuda that knows whether
// this build has CUDA, so that nothing else compiles differently with it (a
// machine without nvcc builds the same objects).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "groth16/engine.hpp"
#include "groth16/fixed_base_engine.hpp"

namespace cuzk::engines {

/* Whether this build has the CUDA backend (nvcc was found at configure time). */
bool cuda_built() noexcept;

/* CUDA devices usable by this build: 0 when built without CUDA or none present */
int cuda_devices() noexcept;

struct device {
  std::string name;
  std::uint64_t total_mem = 0;
};
/* This machine's CUDA devices; empty when built without CUDA or none present. */
std::vector<device> cuda_device_list();

/* Whether --backend `kind` proves on the CUDA engine: "cuda" (a device must
   be present), "auto" where one is present; false for "cpu" and for "auto"
   without one (`note` says why). std::invalid_argument for an unknown kind or
   cuda without a device. */
bool use_cuda(std::string_view kind, std::string* note = nullptr);

/* "cpu" (oneTBB, `threads` threads, 0 = all), "cuda" (device 0) or "auto"
   (cuda when a device is present, else cpu). std::invalid_argument for an
   unknown kind or cuda without a device; `note` says what auto chose and why.
   An engine for curve C (BLS12-381 where unnamed). */
template <class C = curves::bls12_381>
std::unique_ptr<groth16::basic_engine<C>> make(std::string_view kind, int threads = 0, std::string* note = nullptr);

/* The setup's fixed-base multiplications, by the same rule: "cpu", "cuda" or
   "auto"; `note` says why auto fell back to the CPU. */
template <class C = curves::bls12_381>
std::unique_ptr<groth16::basic_fixed_base_engine<C>> make_fixed_base(std::string_view kind,
                                                                     std::string* note = nullptr);

}  // namespace cuzk::engines
