// The device passes' block code run on the host (emulator.hpp) against
// common/poly, for every plan shape, over the Fr of both curves: no device
// needed, so index arithmetic bugs show up here before the GPU runs.
#include <gtest/gtest.h>

#include <vector>

#include "cuda/ff/fr.cuh"
#include "cuda/ntt/pipeline.hpp"
#include "cuda/ntt/powers.hpp"
#include "emulator.hpp"
#include "reference.hpp"
#include "seed.hpp"

namespace cuzk::cuda::ntt::test {
namespace {

/* host tables and the factor_fn over them */
template <class C>
struct host_powers {
  detail::power_tables<C> t;
  host_powers(unsigned log_n, const ff::fr<C>& g, const ff::fr<C>& c) : t(log_n, g, c) {}
  detail::factor_fn fn() const { return t.at(t.lo.data(), t.hi.data()); }
};

template <class C>
class NttEmulator : public ::testing::Test {
 protected:
  using fr = ff::fr<C>;
  using domain = poly::basic_domain<C>;

  template <class F = fr>
  static std::vector<fr> run(kind k, const domain& d, const fr& g, bool natural_in, std::vector<fr> in) {
    const unsigned log_n = d.log_size();
    const fr n_inv = d.size_inv();
    const host_powers<C> pre(log_n, g, fr::one()), post(log_n, g.inverse(), n_inv);
    detail::transform_spec s{log_n, d.twiddles().data(), k == kind::inverse || k == kind::coset_inverse, natural_in, {},
                             {}};
    if (k == kind::coset_forward) s.pre = pre.fn();
    if (k == kind::inverse) s.post = detail::constant(n_inv);
    if (k == kind::coset_inverse) s.post = post.fn();
    std::vector<detail::pass> passes;
    std::vector<fr> out(in.size());
    detail::append_transform(passes, s, in.data(), out.data());
    emulate<F>(passes);
    return out;
  }

  /* all_kinds = false: coset_inverse only (inverse twiddles, a factor table on the last pass) */
  template <class F = fr>
  static void check_transforms(unsigned log_n, poly::root_family f, std::mt19937_64& rng, bool all_kinds = true) {
    const domain d(log_n, f);
    const auto a = random_vector<C>(rng, d.size());
    const fr g = coset_shift<C>(rng);
    for (kind k : {kind::forward, kind::inverse, kind::coset_forward, kind::coset_inverse}) {
      if (!all_kinds && k != kind::coset_inverse) continue;
      const auto want = expected(k, d, a, g);
      /* natural in, bit-reversed out (DIF) */
      ASSERT_EQ(run<F>(k, d, g, true, a), bit_reversed(want, log_n)) << name(k) << " DIF 2^" << log_n;
      /* bit-reversed in, natural out (DIT) */
      ASSERT_EQ(run<F>(k, d, g, false, bit_reversed(a, log_n)), want) << name(k) << " DIT 2^" << log_n;
    }
  }

  /* late: b and c hold garbage until the first pass that reads them (first_reader), as in an engine whose
     copies of b and c arrive while a's transforms run */
  static std::vector<ec::scalar_limbs_t> run_h(const domain& d, poly::h_convention conv, const std::vector<fr>& a,
                                               const std::vector<fr>& b, const std::vector<fr>& c, bool late = false) {
    const unsigned log_n = d.log_size();
    const auto keys = detail::compute_h_keys<C>(conv, log_n, h_shift(d, conv), h_z_inv(d, conv));
    const host_powers<C> to(log_n, keys.to_coset.g, keys.to_coset.c),
        to_r(log_n, keys.to_coset_rinv.g, keys.to_coset_rinv.c), from(log_n, keys.from_coset.g, keys.from_coset.c);
    const detail::h_spec h{conv, log_n, d.twiddles().data(), to.fn(), to_r.fn(), from.fn()};
    std::vector<fr> scratch(2 * d.size());
    std::vector<ec::scalar_limbs_t> out(d.size());
    std::vector<detail::pass> passes;
    if (!late) {
      detail::append_compute_h(passes, h, a.data(), b.data(), c.data(), out.data(), scratch.data());
      emulate<fr>(passes);
      return out;
    }
    std::vector<fr> lb(b.size(), fr::one()), lc(c.size(), fr::from_u64(5));
    detail::append_compute_h(passes, h, a.data(), lb.data(), lc.data(), out.data(), scratch.data());
    const std::size_t rb = detail::first_reader(passes, lb.data()), rc = detail::first_reader(passes, lc.data());
    EXPECT_EQ(detail::first_reader(passes, a.data()), 0u);
    EXPECT_LT(0u, rb);
    EXPECT_LT(rb, rc);
    EXPECT_LT(rc, passes.size());
    for (std::size_t i = 0; i < passes.size(); ++i) {
      if (i == rb) lb = b;
      if (i == rc) lc = c;
      emulate<fr>(std::vector<detail::pass>{passes[i]});
    }
    return out;
  }
};
TYPED_TEST_SUITE(NttEmulator, cuzk::test::curves_under_test, cuzk::test::curve_names);

TYPED_TEST(NttEmulator, TransformsMatchPolyUpTo2To16) {
  auto rng = cuzk::test::rng(901);
  for (unsigned log_n = 0; log_n <= 16; ++log_n)
    for (auto f : {poly::root_family::bellman, poly::root_family::snarkjs}) this->check_transforms(log_n, f, rng);
}

TYPED_TEST(NttEmulator, ThreePassPlanMatchesPolyAt2To21) {
  auto rng = cuzk::test::rng(902);
  ASSERT_EQ(detail::pass_sizes(21).size(), 3u);
  this->check_transforms(21, poly::root_family::snarkjs, rng, false);
}

TYPED_TEST(NttEmulator, DeviceFieldTypeRunsTheSameBlocks) {
  auto rng = cuzk::test::rng(904);
  for (unsigned log_n : {0u, 2u, 3u, 9u, 12u, 13u})
    this->template check_transforms<cuda::fr<TypeParam>>(log_n, poly::root_family::bellman, rng);
}

TYPED_TEST(NttEmulator, ComputeHMatchesPolyInBothConventions) {
  auto rng = cuzk::test::rng(903);
  for (unsigned log_n : {0u, 1u, 2u, 3u, 4u, 7u, 11u, 12u, 13u, 15u})
    for (auto f : {poly::root_family::bellman, poly::root_family::snarkjs})
      for (auto conv : {poly::h_convention::odd_coset, poly::h_convention::coefficients}) {
        const poly::basic_domain<TypeParam> d(log_n, f);
        const auto a = random_vector<TypeParam>(rng, d.size()), b = random_vector<TypeParam>(rng, d.size());
        auto c = random_vector<TypeParam>(rng, d.size());  // Z does not divide AB − C
        const auto a0 = a, b0 = b, c0 = c;
        const auto got = this->run_h(d, conv, a, b, c);
        ASSERT_EQ(got, expected_h(d, a, b, c, conv))
            << "2^" << log_n << (conv == poly::h_convention::odd_coset ? " odd" : " coeff");
        ASSERT_TRUE(a == a0 && b == b0 && c == c0);
        if (conv == poly::h_convention::coefficients && log_n > 0) {
          ASSERT_NE(got[d.size() - 1], ec::scalar_limbs_t{}) << "coefficient n-1 (at rev(n-1) = n-1)";
        }
        for (std::size_t i = 0; i < d.size(); ++i) c[i] = a[i] * b[i];  // Z | AB − C
        const auto exact = this->run_h(d, conv, a, b, c);
        ASSERT_EQ(exact, expected_h(d, a, b, c, conv));
        if (conv == poly::h_convention::coefficients) {
          ASSERT_EQ(exact[d.size() - 1], ec::scalar_limbs_t{});
        }
      }
}

TYPED_TEST(NttEmulator, ComputeHReadsBAndCOnlyFromTheirFirstReaders) {
  auto rng = cuzk::test::rng(905);
  for (unsigned log_n : {1u, 12u, 16u})
    for (auto conv : {poly::h_convention::odd_coset, poly::h_convention::coefficients}) {
      const poly::basic_domain<TypeParam> d(log_n, poly::root_family::snarkjs);
      const auto a = random_vector<TypeParam>(rng, d.size()), b = random_vector<TypeParam>(rng, d.size()),
                 c = random_vector<TypeParam>(rng, d.size());
      ASSERT_EQ(this->run_h(d, conv, a, b, c, true), expected_h(d, a, b, c, conv)) << "2^" << log_n;
    }
}

}  // namespace
}  // namespace cuzk::cuda::ntt::test
