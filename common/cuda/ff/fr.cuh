// Fr on the device: the same bytes as cuzk::ff::fr<C> (Montgomery, R = 2^256).
#pragma once

#include "cuda/ff/constants.cuh"
#include "cuda/ff/mont.cuh"

namespace cuzk::cuda {

template <class C>
using fr = mont<fr_config<C>>;
using fr_t = fr<curves::bls12_381>;
static_assert(sizeof(fr_t) == 32 && sizeof(fr<curves::bn254>) == 32,
              "the engine copies cuzk::ff::fr<C> arrays as they are");

}  // namespace cuzk::cuda
