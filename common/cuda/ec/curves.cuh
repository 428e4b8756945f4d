// The device's G1 (over Fp) and G2 (over Fp2) point types.
#pragma once

#include "cuda/ec/affine.cuh"
#include "cuda/ec/xyzz.cuh"
#include "cuda/ff/fp.cuh"
#include "cuda/ff/fp2.cuh"

namespace cuzk::cuda {

using g1_affine = affine<fp_t>;
using g1_xyzz = xyzz<fp_t>;
using g2_affine = affine<fp2_t>;
using g2_xyzz = xyzz<fp2_t>;

static_assert(sizeof(g1_affine) == 96 && sizeof(g2_affine) == 192, "convert.hpp packs bases in these sizes");
static_assert(sizeof(g1_xyzz) == 4 * 48 && sizeof(g2_xyzz) == 4 * 96, "convert.hpp reads XYZZ in these sizes");

}  // namespace cuzk::cuda
