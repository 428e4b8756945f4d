// Fr on the device: the same bytes as cuzk::ff::fr_t (Montgomery, R = 2^256).
#pragma once

#include "cuda/ff/constants.cuh"
#include "cuda/ff/mont.cuh"

namespace cuzk::cuda {

using fr_t = mont<fr_config>;
static_assert(sizeof(fr_t) == 32, "the engine copies cuzk::ff::fr_t arrays as they are");

}  // namespace cuzk::cuda
