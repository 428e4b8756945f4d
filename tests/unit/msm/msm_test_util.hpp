// Random scalars and bases for the msm tests, the naive sum they are checked
// against, and the typed-test traits that run one test body over G1 and G2.
#pragma once

#include <cstdint>
#include <random>
#include <span>
#include <vector>

#include "ec/batch_affine.hpp"
#include "ec/config.hpp"
#include "ec/scalar_mul.hpp"
#include "msm/msm.hpp"

namespace cuzk::msm::test {

/* uniform below r, by rejection on 255 bits */
inline scalar_limbs_t random_scalar(std::mt19937_64& g) {
  for (;;) {
    scalar_limbs_t k{g(), g(), g(), g() >> 1};
    if (ff::limbs::less(k, ff::fr_params::modulus)) return k;
  }
}
inline fr_t random_fr(std::mt19937_64& g) { return *fr_t::from_canonical(random_scalar(g)); }
inline std::vector<fr_t> random_frs(std::mt19937_64& g, std::size_t n) {
  std::vector<fr_t> v(n);
  for (auto& k : v) k = random_fr(g);
  return v;
}
/* r - 1 */
inline fr_t minus_one() { return -fr_t::one(); }

template <class Curve>
struct group {
  using curve_t = Curve;
  using jac_t = ec::jacobian<Curve>;
  using aff_t = typename jac_t::affine_t;

  static jac_t random_point(std::mt19937_64& g) { return ec::mul(jac_t::generator(), random_scalar(g)); }

  /* n distinct points P_0 + i Q for random P_0, Q, in one batch normalization */
  static std::vector<aff_t> random_bases(std::mt19937_64& g, std::size_t n) {
    std::vector<jac_t> jac(n);
    jac_t p = random_point(g);
    const aff_t q = random_point(g).to_affine();
    for (auto& x : jac) {
      x = p;
      p += q;
    }
    return ec::batch_to_affine<Curve>(std::span<const jac_t>(jac));
  }

  /* sum_i k_i P_i, one scalar multiplication at a time */
  static jac_t naive(std::span<const aff_t> bases, std::span<const fr_t> scalars) {
    jac_t sum;
    for (std::size_t i = 0; i < bases.size(); ++i) sum += ec::mul(jac_t::from_affine(bases[i]), scalars[i]);
    return sum;
  }
};

struct g1 : group<ec::g1_curve> {
  static jac_t msm(std::span<const aff_t> b, std::span<const fr_t> s, const options& o = {}, stats* st = nullptr) {
    return msm_g1(b, s, o, st);
  }
  static jac_t msm(std::span<const aff_t> b, std::span<const scalar_limbs_t> s, const options& o = {},
                   stats* st = nullptr) {
    return msm_g1(b, s, o, st);
  }
  static jac_t msm(std::span<const aff_t> b, std::span<const std::uint32_t> ones,
                   std::span<const std::uint32_t> others, std::span<const scalar_limbs_t> other_scalars,
                   std::uint32_t first, const options& o = {}, stats* st = nullptr) {
    return msm_g1(b, ones, others, other_scalars, first, o, st);
  }
  static jac_t pippenger(std::span<const aff_t> b, std::span<const scalar_limbs_t> s, const options& o = {},
                         stats* st = nullptr) {
    return pippenger_g1(b, s, o, st);
  }
  static jac_t sum(std::span<const aff_t> p, int threads = 0) { return sum_g1(p, threads); }
};
struct g2 : group<ec::g2_curve> {
  static jac_t msm(std::span<const aff_t> b, std::span<const fr_t> s, const options& o = {}, stats* st = nullptr) {
    return msm_g2(b, s, o, st);
  }
  static jac_t msm(std::span<const aff_t> b, std::span<const scalar_limbs_t> s, const options& o = {},
                   stats* st = nullptr) {
    return msm_g2(b, s, o, st);
  }
  static jac_t msm(std::span<const aff_t> b, std::span<const std::uint32_t> ones,
                   std::span<const std::uint32_t> others, std::span<const scalar_limbs_t> other_scalars,
                   std::uint32_t first, const options& o = {}, stats* st = nullptr) {
    return msm_g2(b, ones, others, other_scalars, first, o, st);
  }
  static jac_t pippenger(std::span<const aff_t> b, std::span<const scalar_limbs_t> s, const options& o = {},
                         stats* st = nullptr) {
    return pippenger_g2(b, s, o, st);
  }
  static jac_t sum(std::span<const aff_t> p, int threads = 0) { return sum_g2(p, threads); }
};

inline std::vector<scalar_limbs_t> canonical(std::span<const fr_t> s) {
  std::vector<scalar_limbs_t> out(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) out[i] = s[i].to_canonical();
  return out;
}

}  // namespace cuzk::msm::test
