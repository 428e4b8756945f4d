// Fp: the base field of a curve C (BLS12-381: 381 bits, BN254: 254 bits).
#pragma once

#include "curves/bls12_381.hpp"
#include "ff/mont_field.hpp"

namespace cuzk::ff {
template <class C>
using fp = mont_field<typename C::fp_params>;
using fp_t = fp<curves::bls12_381>;
}  // namespace cuzk::ff
