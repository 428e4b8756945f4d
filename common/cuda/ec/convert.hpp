// Host conversions between the CPU points (common/ec) of a curve C and the
// device layout (cuda/ec/curves.cuh), as bytes: no CUDA types, so any .cpp can
// use them. Instantiated for BLS12-381 (the default) and BN254.
//   affine: x, y in Montgomery form; the point at infinity is all zero bytes
//   xyzz:   X, Y, ZZ, ZZZ
#pragma once

#include <cstddef>
#include <span>

#include "curves/bls12_381.hpp"
#include "curves/bn254.hpp"
#include "ec/config.hpp"

namespace cuzk::cuda {

template <class C>
inline constexpr std::size_t g1_affine_bytes = 2 * sizeof(ff::fp<C>);
template <class C>
inline constexpr std::size_t g2_affine_bytes = 2 * sizeof(ff::fp2<C>);
template <class C>
inline constexpr std::size_t g1_xyzz_bytes = 4 * sizeof(ff::fp<C>);
template <class C>
inline constexpr std::size_t g2_xyzz_bytes = 4 * sizeof(ff::fp2<C>);

/* Affine: ec::g1_affine<C> or ec::g2_affine<C>; out holds at least
   in.size() * g1_affine_bytes<C> (g2_affine_bytes<C>) bytes */
template <class Affine>
void to_device_layout(std::span<const Affine> in, std::span<std::byte> out);

template <class C = curves::bls12_381>
ec::g1_affine<C> from_device_affine_g1(const std::byte* p);
template <class C = curves::bls12_381>
ec::g2_affine<C> from_device_affine_g2(const std::byte* p);

/* (X ZZ, Y ZZZ, ZZ) is the same point in Jacobian coordinates, as msm::xyzz::to_jacobian */
template <class C = curves::bls12_381>
ec::g1_jacobian<C> from_device_xyzz_g1(const std::byte* xyzz);
template <class C = curves::bls12_381>
ec::g2_jacobian<C> from_device_xyzz_g2(const std::byte* xyzz);

}  // namespace cuzk::cuda
