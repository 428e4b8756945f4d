// What the device MSM needs to know of G1 and G2: the device field, the CPU
// point types, the size of a packed base, and the conversions (convert.hpp).
#pragma once

#include <cstddef>

#include "cuda/ec/convert.hpp"
#include "cuda/ec/curves.cuh"
#include "ec/config.hpp"

namespace cuzk::cuda::msm {

template <class Affine>
struct group;

template <>
struct group<ec::g1_affine_t> {
  using field = fp_t;
  using jacobian = ec::g1_jacobian_t;
  static constexpr std::size_t point_bytes = 2 * sizeof(fp_t);
  static jacobian from_xyzz(const std::byte* p) { return from_device_xyzz_g1(p); }
};

template <>
struct group<ec::g2_affine_t> {
  using field = fp2_t;
  using jacobian = ec::g2_jacobian_t;
  static constexpr std::size_t point_bytes = 2 * sizeof(fp2_t);
  static jacobian from_xyzz(const std::byte* p) { return from_device_xyzz_g2(p); }
};

}  // namespace cuzk::cuda::msm
