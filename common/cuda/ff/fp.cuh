// Fp on the device: the same bytes as cuzk::ff::fp<C> (Montgomery, R = 2^(64 n_limbs)).
#pragma once

#include "cuda/ff/constants.cuh"
#include "cuda/ff/mont.cuh"

namespace cuzk::cuda {

template <class C>
using fp = mont<fp_config<C>>;
using fp_t = fp<curves::bls12_381>;
static_assert(sizeof(fp_t) == 48 && sizeof(fp<curves::bn254>) == 32,
              "the engine copies cuzk::ff::fp<C> arrays as they are");

}  // namespace cuzk::cuda
