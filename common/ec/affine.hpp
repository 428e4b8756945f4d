// Affine points of G1 (over Fp) and G2 (over Fp2). The pairing consumes these.
#pragma once

#include "ff/fp.hpp"
#include "ff/fp2.hpp"

namespace cuzk::ec {

template <class F>
struct affine_point {
  using field_t = F;
  F x{}, y{};
  bool infinity = true;

  static affine_point identity() { return {}; }
  friend bool operator==(const affine_point& a, const affine_point& b) {
    if (a.infinity || b.infinity) return a.infinity == b.infinity;
    return a.x == b.x && a.y == b.y;
  }
  affine_point operator-() const { return infinity ? *this : affine_point{x, -y, false}; }
};

using g1_affine_t = affine_point<ff::fp_t>;
using g2_affine_t = affine_point<ff::fp2_t>;

}  // namespace cuzk::ec
