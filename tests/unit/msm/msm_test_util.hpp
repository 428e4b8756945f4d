// The G1/G2 traits of tests/support/random.hpp with the msm entry points, so
// one typed test body runs over both groups.
#pragma once

#include <cstdint>
#include <random>
#include <span>
#include <vector>

#include "msm/msm.hpp"
#include "random.hpp"

namespace cuzk::msm::test {

using cuzk::test::random_fr;
using cuzk::test::random_frs;
using cuzk::test::random_scalar;
/* r - 1 */
inline fr_t minus_one() { return -fr_t::one(); }

struct g1 : cuzk::test::g1 {
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
struct g2 : cuzk::test::g2 {
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
using both_groups = ::testing::Types<g1, g2>;

inline std::vector<scalar_limbs_t> canonical(std::span<const fr_t> s) {
  std::vector<scalar_limbs_t> out(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) out[i] = s[i].to_canonical();
  return out;
}

}  // namespace cuzk::msm::test
