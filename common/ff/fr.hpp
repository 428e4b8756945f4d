// Fr: the scalar field of a curve C, the prime order r of its groups.
#pragma once

#include "curves/bls12_381.hpp"
#include "ff/mont_field.hpp"

namespace cuzk::ff {
template <class C>
using fr = mont_field<typename C::fr_params>;
using fr_t = fr<curves::bls12_381>;
}  // namespace cuzk::ff
