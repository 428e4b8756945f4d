// The device's G1 (over Fp) and G2 (over Fp2) point types of a curve C; the
// _t names are BLS12-381's.
#pragma once

#include "cuda/ec/affine.cuh"
#include "cuda/ec/xyzz.cuh"
#include "cuda/ff/fp.cuh"
#include "cuda/ff/fp2.cuh"

namespace cuzk::cuda {

template <class C>
using g1_affine = affine<fp<C>>;
template <class C>
using g1_xyzz = xyzz<fp<C>>;
template <class C>
using g2_affine = affine<fp2<C>>;
template <class C>
using g2_xyzz = xyzz<fp2<C>>;

using g1_affine_t = g1_affine<curves::bls12_381>;
using g1_xyzz_t = g1_xyzz<curves::bls12_381>;
using g2_affine_t = g2_affine<curves::bls12_381>;
using g2_xyzz_t = g2_xyzz<curves::bls12_381>;

/* convert.hpp packs bases and reads XYZZ points in these sizes: 2 and 4 field elements */
template <class C>
inline constexpr bool packed_sizes = sizeof(g1_affine<C>) == 2 * sizeof(fp<C>) &&
                                     sizeof(g2_affine<C>) == 2 * sizeof(fp2<C>) &&
                                     sizeof(g1_xyzz<C>) == 4 * sizeof(fp<C>) &&
                                     sizeof(g2_xyzz<C>) == 4 * sizeof(fp2<C>);
static_assert(packed_sizes<curves::bls12_381> && packed_sizes<curves::bn254>);
static_assert(sizeof(g1_affine_t) == 96 && sizeof(g2_affine_t) == 192);

}  // namespace cuzk::cuda
