// Fp on the device: the same bytes as cuzk::ff::fp_t (Montgomery, R = 2^384).
#pragma once

#include "cuda/ff/constants.cuh"
#include "cuda/ff/mont.cuh"

namespace cuzk::cuda {

using fp_t = mont<fp_config>;
static_assert(sizeof(fp_t) == 48, "the engine copies cuzk::ff::fp_t arrays as they are");

}  // namespace cuzk::cuda
