// Host conversions between the CPU points (common/ec) and the device layout
// (cuda/ec/curves.cuh), as bytes: no CUDA types, so any .cpp can use them.
//   affine: x, y in Montgomery form; the point at infinity is all zero bytes
//   xyzz:   X, Y, ZZ, ZZZ
#pragma once

#include <cstddef>
#include <span>

#include "ec/config.hpp"

namespace cuzk::cuda {

inline constexpr std::size_t g1_affine_bytes = 2 * 48, g2_affine_bytes = 2 * 96;
inline constexpr std::size_t g1_xyzz_bytes = 4 * 48, g2_xyzz_bytes = 4 * 96;

/* out holds at least in.size() * g1_affine_bytes (g2_affine_bytes) bytes */
void to_device_layout(std::span<const ec::g1_affine_t> in, std::span<std::byte> out);
void to_device_layout(std::span<const ec::g2_affine_t> in, std::span<std::byte> out);

ec::g1_affine_t from_device_affine_g1(const std::byte* p);
ec::g2_affine_t from_device_affine_g2(const std::byte* p);

/* (X ZZ, Y ZZZ, ZZ) is the same point in Jacobian coordinates, as msm::xyzz::to_jacobian */
ec::g1_jacobian_t from_device_xyzz_g1(const std::byte* xyzz);
ec::g2_jacobian_t from_device_xyzz_g2(const std::byte* xyzz);

}  // namespace cuzk::cuda
