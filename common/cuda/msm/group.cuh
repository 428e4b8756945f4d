// What the device MSM needs to know of a group (G1 or G2 of a curve C, named
// by its CPU affine type): the device field, the CPU Jacobian type, the size
// of a packed base, the scalars' bit length and the conversion (convert.hpp).
#pragma once

#include <cstddef>
#include <type_traits>

#include "cuda/ec/convert.hpp"
#include "cuda/ec/curves.cuh"
#include "cuda/msm/msm.hpp"
#include "msm/booth.hpp"

namespace cuzk::cuda::msm {

template <class Affine>
struct group {
  using cpu_group = typename group_of<Affine>::type;
  using curve = typename cpu_group::curve;
  static constexpr bool is_g2 = std::is_same_v<cpu_group, ec::g2_group<curve>>;
  using field = std::conditional_t<is_g2, fp2<curve>, fp<curve>>;
  using jacobian = jacobian_of<Affine>;
  static constexpr std::size_t point_bytes = 2 * sizeof(field);
  static constexpr unsigned scalar_bits = ::cuzk::msm::scalar_bits<curve>;
  static_assert(sizeof(field) == sizeof(typename Affine::field_t), "the CPU's bytes, as they are");

  static jacobian from_xyzz(const std::byte* p) {
    if constexpr (is_g2)
      return from_device_xyzz_g2<curve>(p);
    else
      return from_device_xyzz_g1<curve>(p);
  }
};

}  // namespace cuzk::cuda::msm
