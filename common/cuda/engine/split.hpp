// The 0/1 split of the witness on the device (DESIGN §5, as supraseal does):
// z's zeros are skipped, the indices of its ones go to batch addition, the
// others (with their scalars made canonical) to Pippenger. Indices come out
// increasing, so the C query's part is a suffix. One splitter serves z over
// the Fr of either curve (its one is that curve's R mod r).
#pragma once

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

#include "cuda/memory.hpp"
#include "curves/bls12_381.hpp"
#include "ec/config.hpp"
#include "ff/fr.hpp"

namespace cuzk::cuda {

class device_splitter {
 public:
  struct result {
    const std::uint32_t* ones;
    std::size_t n_ones;
    const std::uint32_t* others;
    const ec::scalar_limbs_t* k;  // canonical, one per others
    std::size_t n_others;
  };
  /* z: n Montgomery values of curve C's Fr on the device; blocks until the counts are known */
  template <class C = curves::bls12_381>
  result split(const ff::fr<C>* z, std::size_t n, cudaStream_t s);

 private:
  device_buffer<std::uint8_t> flags_, temp_;
  device_buffer<std::uint32_t> iota_, ones_, others_, counts_;
  device_buffer<ec::scalar_limbs_t> canonical_, k_;
};

}  // namespace cuzk::cuda
