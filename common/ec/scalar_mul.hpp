// Scalar multiplication. Variable time: timing depends on the scalar, so do not
// use it with long-term secret keys.
//   mul(P, k):     P in G1 or G2 (the order-r subgroup), k taken mod r.
//                  G1: GLV with phi = [-x^2] (2 x 128-bit wNAF, w = 5, affine tables);
//                  G2: GLS with psi = [x] (4 x 64-bit wNAF over affine tables).
//   mul_any(P, k): any point on the curve, k any integer of N limbs
//                  (plain wNAF; the reference for mul, and for [r]P, [h]P).
//   mul_by_x(P):   [x]P with the curve parameter x = -0xd201000000010000.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ec/config.hpp"
#include "ec/scalar.hpp"

namespace cuzk::ec {

namespace detail {
/* out[i] = (2i + 1) P for i < n */
template <class C>
void odd_multiples(const jacobian<C>& p, jacobian<C>* out, std::size_t n) {
  jacobian<C> p2 = p.dbl();
  out[0] = p;
  for (std::size_t i = 1; i < n; ++i) out[i] = out[i - 1] + p2;
}
/* acc += d T where table[i] = (2i + 1) T and d is an odd wNAF digit (or 0) */
template <class Acc, class Entry>
inline void add_wnaf_digit(Acc& acc, const Entry* table, int d) {
  if (d > 0) acc += table[d >> 1];
  else if (d < 0) acc -= table[(-d) >> 1];
}
}  // namespace detail

template <class C, std::size_t N>
jacobian<C> mul_any(const jacobian<C>& p, const ff::limbs::big<N>& k) {
  constexpr unsigned w = 5;
  jacobian<C> table[1 << (w - 2)];
  detail::odd_multiples(p, table, 1 << (w - 2));
  std::int8_t digits[64 * N + 1];
  std::size_t len = wnaf(k, w, digits);
  jacobian<C> acc;
  for (std::size_t i = len; i-- > 0;) {
    acc = acc.dbl();
    detail::add_wnaf_digit(acc, table, digits[i]);
  }
  return acc;
}

/* [|x|]P by double-and-add: |x| = 0xd201000000010000 has only six set bits. */
template <class C>
jacobian<C> mul_by_x_abs(const jacobian<C>& p) {
  jacobian<C> acc = p;  // the top bit, 63
  for (int i = 62; i >= 0; --i) {
    acc = acc.dbl();
    if ((consts::x_abs >> i) & 1) acc += p;
  }
  return acc;
}
/* [x]P = -[|x|]P since x < 0 */
template <class C>
jacobian<C> mul_by_x(const jacobian<C>& p) { return -mul_by_x_abs(p); }

g1_jacobian_t mul(const g1_jacobian_t& p, const scalar_limbs_t& k);
g2_jacobian_t mul(const g2_jacobian_t& p, const scalar_limbs_t& k);
inline g1_jacobian_t mul(const g1_jacobian_t& p, const fr_t& k) { return mul(p, k.to_canonical()); }
inline g2_jacobian_t mul(const g2_jacobian_t& p, const fr_t& k) { return mul(p, k.to_canonical()); }
inline g1_jacobian_t mul(const g1_affine_t& p, const fr_t& k) { return mul(g1_jacobian_t::from_affine(p), k); }
inline g2_jacobian_t mul(const g2_affine_t& p, const fr_t& k) { return mul(g2_jacobian_t::from_affine(p), k); }

}  // namespace cuzk::ec
