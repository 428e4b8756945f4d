// G1/G2 points for the pairing tests, from common/ec: the standard
// generators, scalar multiples and sums, as affine points.
#pragma once

#include "ec/config.hpp"
#include "ec/scalar_mul.hpp"

namespace cuzk::test {

inline ec::g1_affine_t g1_generator() { return ec::g1_curve::generator(); }
inline ec::g2_affine_t g2_generator() { return ec::g2_curve::generator(); }

inline ec::g1_affine_t scalar_mul(const ec::g1_affine_t& p, const ff::fr_t& k) { return ec::mul(p, k).to_affine(); }
inline ec::g2_affine_t scalar_mul(const ec::g2_affine_t& p, const ff::fr_t& k) { return ec::mul(p, k).to_affine(); }

inline ec::g1_affine_t point_add(const ec::g1_affine_t& a, const ec::g1_affine_t& b) {
  return (ec::g1_jacobian_t::from_affine(a) + ec::g1_jacobian_t::from_affine(b)).to_affine();
}
inline ec::g2_affine_t point_add(const ec::g2_affine_t& a, const ec::g2_affine_t& b) {
  return (ec::g2_jacobian_t::from_affine(a) + ec::g2_jacobian_t::from_affine(b)).to_affine();
}

}  // namespace cuzk::test
