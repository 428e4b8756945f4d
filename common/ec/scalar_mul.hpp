// Scalar multiplication. Variable time: timing depends on the scalar, so do not
// use it with long-term secret keys.
//   mul(P, k):     P in G1 or G2 (the order-r subgroup), k taken mod r.
//                  BLS12-381 G1: GLV with phi = [-x^2] (2 x 128-bit wNAF,
//                  w = 5, affine tables); G2: GLS with psi = [x] (4 x 64-bit
//                  wNAF over affine tables). BN254: plain wNAF of k mod r.
//   mul_any(P, k): any point on the curve, k any integer of N limbs
//                  (plain wNAF; the reference for mul, and for [r]P, [h]P).
//   mul_by_x(P):   [x]P with the curve parameter x (negative on BLS12-381).
#pragma once

#include <cstddef>
#include <cstdint>

#include "ec/config.hpp"
#include "ec/scalar.hpp"

namespace cuzk::ec {

namespace detail {
/* out[i] = (2i + 1) P for i < n */
template <class G>
void odd_multiples(const jacobian<G>& p, jacobian<G>* out, std::size_t n) {
  jacobian<G> p2 = p.dbl();
  out[0] = p;
  for (std::size_t i = 1; i < n; ++i) out[i] = out[i - 1] + p2;
}
/* acc += d T where table[i] = (2i + 1) T and d is an odd wNAF digit (or 0) */
template <class Acc, class Entry>
inline void add_wnaf_digit(Acc& acc, const Entry* table, int d) {
  if (d > 0)
    acc += table[d >> 1];
  else if (d < 0)
    acc -= table[(-d) >> 1];
}
}  // namespace detail

template <class G, std::size_t N>
jacobian<G> mul_any(const jacobian<G>& p, const ff::limbs::big<N>& k) {
  constexpr unsigned w = 5;
  jacobian<G> table[1 << (w - 2)];
  detail::odd_multiples(p, table, 1 << (w - 2));
  std::int8_t digits[64 * N + 1];
  std::size_t len = wnaf(k, w, digits);
  jacobian<G> acc;
  for (std::size_t i = len; i-- > 0;) {
    acc = acc.dbl();
    detail::add_wnaf_digit(acc, table, digits[i]);
  }
  return acc;
}

/* [|x|]P by double-and-add: |x| has few set bits on both curves
   (BLS12-381: six; BN254: 4965661367192848881, 22) */
template <class G>
jacobian<G> mul_by_x_abs(const jacobian<G>& p) {
  constexpr std::uint64_t x = G::curve::x_abs;
  jacobian<G> acc = p;  // the top bit
  for (int i = 62 - __builtin_clzll(x); i >= 0; --i) {
    acc = acc.dbl();
    if ((x >> i) & 1) acc += p;
  }
  return acc;
}
/* [x]P, negated where x < 0 */
template <class G>
jacobian<G> mul_by_x(const jacobian<G>& p) {
  if constexpr (G::curve::x_negative)
    return -mul_by_x_abs(p);
  else
    return mul_by_x_abs(p);
}

/* BLS12-381's endomorphism methods (g1_scalar_mul.cpp, g2_scalar_mul.cpp) */
g1_jacobian_t mul_glv(const g1_jacobian_t& p, const scalar_limbs_t& k);
g2_jacobian_t mul_gls(const g2_jacobian_t& p, const scalar_limbs_t& k);

template <class C>
g1_jacobian<C> mul(const jacobian<g1_group<C>>& p, const scalar_limbs_t& k) {
  if constexpr (C::fam == curves::family::bls12)
    return mul_glv(p, k);
  else
    return mul_any(p, reduce_mod_r<C>(k));
}
template <class C>
g2_jacobian<C> mul(const jacobian<g2_group<C>>& p, const scalar_limbs_t& k) {
  if constexpr (C::fam == curves::family::bls12)
    return mul_gls(p, k);
  else
    return mul_any(p, reduce_mod_r<C>(k));
}
template <class G>
jacobian<G> mul(const jacobian<G>& p, const ff::fr<typename G::curve>& k) {
  return mul(p, k.to_canonical());
}
template <class P>
g1_jacobian<typename P::curve> mul(const affine_point<ff::mont_field<P>>& p, const ff::fr<typename P::curve>& k) {
  return mul(g1_jacobian<typename P::curve>::from_affine(p), k);
}
template <class C>
g2_jacobian<C> mul(const affine_point<ff::fp2<C>>& p, const ff::fr<C>& k) {
  return mul(g2_jacobian<C>::from_affine(p), k);
}

}  // namespace cuzk::ec
