// Curve membership, prime-order subgroup membership and cofactor clearing,
// for either curve.
#pragma once

#include "ec/config.hpp"
#include "ec/endomorphism.hpp"
#include "ec/scalar_mul.hpp"

namespace cuzk::ec {

/* y^2 = x^3 + b; infinity is on the curve */
template <class P>
bool is_on_curve(const affine_point<ff::mont_field<P>>& p) {
  return p.infinity || p.y.sqr() == p.x.sqr() * p.x + g1_group<typename P::curve>::b();
}
template <class C>
bool is_on_curve(const affine_point<ff::fp2<C>>& p) {
  return p.infinity || p.y.sqr() == p.x.sqr() * p.x + g2_group<C>::b();
}

/* BLS12-381, for P on the curve: P in G1 iff phi(P) = -[x^2]P (the only
   non-generic check; g1_subgroup.cpp) */
bool in_subgroup_bls12_381(const g1_jacobian_t& p);

/* For P on the curve (Scott, eprint 2021/1130 §4 and §6; El Housni,
   Guillevic, Piellard, eprint 2022/352):
     G1: BLS12-381 phi(P) = -[x^2]P; BN254 has cofactor 1, every point is in G1
     G2: psi(P) = [x]P on BLS12-381, psi(P) = [6x^2]P on BN254 */
template <class C>
bool in_subgroup(const jacobian<g1_group<C>>& p) {
  if constexpr (C::fam == curves::family::bls12)
    return in_subgroup_bls12_381(p);
  else
    return true;
}
template <class C>
bool in_subgroup(const jacobian<g2_group<C>>& p) {
  if constexpr (C::fam == curves::family::bls12) {
    return psi(p) == mul_by_x(p);
  } else {
    auto x2 = mul_by_x(mul_by_x(p)); /* [x^2]P */
    auto x6 = (x2 + x2.dbl()).dbl(); /* [6x^2]P */
    return psi(p) == x6;
  }
}
template <class P>
bool in_subgroup(const affine_point<ff::mont_field<P>>& p) {
  return in_subgroup(g1_jacobian<typename P::curve>::from_affine(p));
}
template <class C>
bool in_subgroup(const affine_point<ff::fp2<C>>& p) {
  return in_subgroup(g2_jacobian<C>::from_affine(p));
}

/* The definition the fast checks are tested against: [r]P = O. */
template <class G>
bool in_subgroup_by_order(const jacobian<G>& p) {
  return mul_any(p, G::curve::fr_params::modulus).is_identity();
}

/* Maps any point of the curve into the subgroup:
   BLS12-381 (RFC 9380 §8.8): G1 [h_eff]P with h_eff = 1 - x = 0xd201000000010001;
   G2 [x^2 - x - 1]P + [x - 1]psi(P) + psi^2(2P) (Budroni-Pintore, App. G.3).
   BN254: G1 is the whole curve; G2 [h2]P. */
template <class C>
g1_jacobian<C> clear_cofactor(const jacobian<g1_group<C>>& p) {
  if constexpr (C::fam == curves::family::bls12)
    return p + mul_by_x_abs(p); /* [1 - x]P = P + [|x|]P */
  else
    return p;
}
template <class C>
g2_jacobian<C> clear_cofactor(const jacobian<g2_group<C>>& p) {
  if constexpr (C::fam == curves::family::bls12) {
    /* RFC 9380 App. G.3, clear_cofactor_bls12381_g2, with c1 = x */
    auto t1 = mul_by_x(p);       /* t1 = [x]P */
    auto t2 = psi(p);            /* t2 = psi(P) */
    auto t3 = psi(psi(p.dbl())); /* t3 = psi^2(2P) */
    t3 -= t2;                    /* t3 = psi^2(2P) - psi(P) */
    t2 = mul_by_x(t1 + t2);      /* t2 = [x]([x]P + psi(P)) */
    t3 += t2;                    /* t3 += [x^2]P + [x]psi(P) */
    t3 -= t1;                    /* t3 -= [x]P */
    return t3 - p;               /* Q = t3 - P */
  } else {
    return mul_any(p, C::g2_cofactor);
  }
}

}  // namespace cuzk::ec
