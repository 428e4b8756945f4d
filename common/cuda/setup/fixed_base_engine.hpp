// The setup's fixed-base multiplications k_i G on a CUDA device: the CPU's
// window table of G uploaded once per base, one thread per scalar summing at
// most 32 entries in XYZZ, normalized to affine on the device, in chunks so
// device and pinned memory stay bounded. Same points as the CPU engine.
#pragma once

#include <cstddef>
#include <memory>

#include "curves/bls12_381.hpp"
#include "curves/bn254.hpp"
#include "groth16/fixed_base_engine.hpp"

namespace cuzk::cuda {

struct fixed_base_options {
  int device = 0;
  /* scalars per kernel launch (halved while the device-memory budget refuses it) */
  std::size_t chunk = std::size_t(1) << 21;
};

/* Throws cuda::error when the device cannot be used. */
template <class C = curves::bls12_381>
std::unique_ptr<groth16::basic_fixed_base_engine<C>> make_fixed_base_engine(const fixed_base_options& opt = {});

}  // namespace cuzk::cuda
