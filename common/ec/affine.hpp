// Affine points of G1 (over Fp) and G2 (over Fp2). The pairing consumes these.
#pragma once

#include <cstring>

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

/* A point as a .zkey's sections (and the CUDA kernels) hold it: x ‖ y in
   Montgomery form, the point at infinity as x = y = 0, which no curve
   y² = x³ + b (b ≠ 0) contains. Bytes, aligned to nothing, so that the CPU
   MSMs read a key's bases in place wherever a section starts in its file. */
template <class F>
struct packed_affine {
  using field_t = F;
  unsigned char bytes[2 * sizeof(F)];

  static packed_affine of(const affine_point<F>& p) {
    packed_affine q{};
    if (!p.infinity) {
      std::memcpy(q.bytes, &p.x, sizeof(F));
      std::memcpy(q.bytes + sizeof(F), &p.y, sizeof(F));
    }
    return q;
  }
};

template <class F>
bool is_infinity(const affine_point<F>& p) {
  return p.infinity;
}
template <class F>
const F& x_of(const affine_point<F>& p) {
  return p.x;
}
template <class F>
const F& y_of(const affine_point<F>& p) {
  return p.y;
}
template <class F>
F x_of(const packed_affine<F>& p) {
  F x;
  std::memcpy(&x, p.bytes, sizeof(F));
  return x;
}
template <class F>
F y_of(const packed_affine<F>& p) {
  F y;
  std::memcpy(&y, p.bytes + sizeof(F), sizeof(F));
  return y;
}
template <class F>
bool is_infinity(const packed_affine<F>& p) {
  return x_of(p).is_zero() && y_of(p).is_zero();
}

using g1_affine_t = affine_point<ff::fp_t>;
using g2_affine_t = affine_point<ff::fp2_t>;

}  // namespace cuzk::ec
