// Choosing the engine a proof runs on: --backend cpu|cuda|auto.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "groth16/engine.hpp"

namespace cuzk::engines {

/* CUDA devices usable by this build: 0 when built without CUDA or none present */
int cuda_devices() noexcept;

/* "cpu" (oneTBB, `threads` threads, 0 = all), "cuda" (device 0) or "auto"
   (cuda when a device is present, else cpu). std::invalid_argument for an
   unknown kind or cuda without a device; `note` says what auto chose and why.
   An engine for curve C (BLS12-381 where unnamed). */
template <class C = curves::bls12_381>
std::unique_ptr<groth16::basic_engine<C>> make(std::string_view kind, int threads = 0, std::string* note = nullptr);

}  // namespace cuzk::engines
