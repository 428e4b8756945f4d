// G1/G2 points for the pairing tests: the standard generators and a plain
// Jacobian double-and-add (EFD dbl-2009-l, add-2007-bl; a = 0), kept
// independent of common/ec so the pairing is checked against separate code.
#pragma once

#include <string_view>

#include "ec/affine.hpp"
#include "ff/fp2.hpp"
#include "ff/fr.hpp"

namespace cuzk::test {

inline ff::fp_t fp_hex(std::string_view h) {
  ff::fp_params::limbs_t l{};
  std::size_t bit = 0;
  for (std::size_t i = h.size(); i-- > 0; bit += 4) {
    char c = h[i];
    std::uint64_t d = c <= '9' ? c - '0' : c - 'a' + 10;
    l[bit / 64] |= d << (bit % 64);
  }
  return *ff::fp_t::from_canonical(l);
}

/* draft-irtf-cfrg-pairing-friendly-curves, section 4.2.1 (BLS12_381) */
inline ec::g1_affine_t g1_generator() {
  return {fp_hex("17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb"),
          fp_hex("08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1"),
          false};
}
inline ec::g2_affine_t g2_generator() {
  return {{fp_hex("024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8"),
           fp_hex("13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e")},
          {fp_hex("0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801"),
           fp_hex("0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be")},
          false};
}

template <class F>
struct test_jacobian {
  F x, y, z;  // (X/Z^2, Y/Z^3); Z = 0 is infinity

  static test_jacobian from(const ec::affine_point<F>& a) {
    return a.infinity ? test_jacobian{F::one(), F::one(), F::zero()} : test_jacobian{a.x, a.y, F::one()};
  }
  ec::affine_point<F> to_affine() const {
    if (z.is_zero()) return {};
    F zi = z.inverse(), zi2 = zi.sqr();
    return {x * zi2, y * zi2 * zi, false};
  }
  test_jacobian dbl() const {
    if (z.is_zero()) return *this;
    F a = x.sqr(), b = y.sqr(), c = b.sqr();
    F d = ((x + b).sqr() - a - c).dbl();
    F e = a.dbl() + a, f = e.sqr();
    F x3 = f - d.dbl();
    return {x3, e * (d - x3) - c.dbl().dbl().dbl(), (y * z).dbl()};
  }
  friend test_jacobian operator+(const test_jacobian& p, const test_jacobian& q) {
    if (p.z.is_zero()) return q;
    if (q.z.is_zero()) return p;
    F z1z1 = p.z.sqr(), z2z2 = q.z.sqr();
    F u1 = p.x * z2z2, u2 = q.x * z1z1;
    F s1 = p.y * q.z * z2z2, s2 = q.y * p.z * z1z1;
    F h = u2 - u1, rr = (s2 - s1).dbl();
    if (h.is_zero()) return rr.is_zero() ? p.dbl() : from({});
    F i = h.dbl().sqr(), j = h * i, v = u1 * i;
    F x3 = rr.sqr() - j - v.dbl();
    return {x3, rr * (v - x3) - (s1 * j).dbl(), ((p.z + q.z).sqr() - z1z1 - z2z2) * h};
  }
};

/* [k] a for an integer k in little-endian limbs */
template <class F, std::size_t N>
ec::affine_point<F> scalar_mul(const ec::affine_point<F>& a, const ff::limbs::big<N>& k) {
  auto base = test_jacobian<F>::from(a);
  auto acc = test_jacobian<F>::from({});
  for (std::size_t i = ff::limbs::bit_length(k); i-- > 0;) {
    acc = acc.dbl();
    if (ff::limbs::bit(k, i)) acc = acc + base;
  }
  return acc.to_affine();
}
template <class F>
ec::affine_point<F> scalar_mul(const ec::affine_point<F>& a, const ff::fr_t& k) {
  return scalar_mul(a, k.to_canonical());
}

template <class F>
ec::affine_point<F> point_add(const ec::affine_point<F>& a, const ec::affine_point<F>& b) {
  return (test_jacobian<F>::from(a) + test_jacobian<F>::from(b)).to_affine();
}

}  // namespace cuzk::test
