// G1/G2 points of a curve C for the pairing tests, from common/ec: the
// standard generators, scalar multiples and sums, as affine points.
#pragma once

#include <random>

#include "ec/config.hpp"
#include "ec/scalar_mul.hpp"
#include "ff/fr.hpp"

namespace cuzk::test {

template <class C>
ec::g1_affine<C> g1_generator() {
  return ec::g1_group<C>::generator();
}
template <class C>
ec::g2_affine<C> g2_generator() {
  return ec::g2_group<C>::generator();
}

/* [k]P for P in G1 or G2 */
template <class A, class K>
A scalar_mul(const A& p, const K& k) {
  return ec::mul(p, k).to_affine();
}

template <class P>
ec::affine_point<ff::mont_field<P>> point_add(const ec::affine_point<ff::mont_field<P>>& a,
                                              const ec::affine_point<ff::mont_field<P>>& b) {
  using J = ec::g1_jacobian<typename P::curve>;
  return (J::from_affine(a) + J::from_affine(b)).to_affine();
}
template <class C>
ec::g2_affine<C> point_add(const ec::affine_point<ff::fp2<C>>& a, const ec::affine_point<ff::fp2<C>>& b) {
  using J = ec::g2_jacobian<C>;
  return (J::from_affine(a) + J::from_affine(b)).to_affine();
}

template <class C>
ec::g1_affine<C> random_g1(std::mt19937_64& g) {
  return scalar_mul(g1_generator<C>(), ff::fr<C>::random(g));
}
template <class C>
ec::g2_affine<C> random_g2(std::mt19937_64& g) {
  return scalar_mul(g2_generator<C>(), ff::fr<C>::random(g));
}

}  // namespace cuzk::test
