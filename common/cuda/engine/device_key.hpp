// A proving key's bases on the device, uploaded once and kept in the layout
// the MSM kernels want, so a second proof with the same key copies only its
// a, b, c and witness split.
#pragma once

#include <cstdint>

#include "cuda/msm/msm.hpp"
#include "groth16/keys.hpp"

namespace cuzk::cuda {

class device_key {
 public:
  device_key(const groth16::proving_key& pk, cudaStream_t s);

  /* the same key (same object, same sizes and δ) as the one uploaded */
  bool holds(const groth16::proving_key& pk) const;

  msm::g1_bases a, b1, c, h;
  msm::g2_bases b2;

 private:
  const groth16::proving_key* pk_;
  std::uint32_t n_vars_, domain_size_;
  ec::g1_affine_t delta1_;
};

}  // namespace cuzk::cuda
