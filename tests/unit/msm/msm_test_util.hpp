// Typed-test traits for the msm tests: one group G of a curve C (G1 and G2 of
// every curve in tests/support/curves_under_test.hpp) with the msm entry
// points (group_msm<G>), random points and scalars, and the naive MSM.
//   template <class G> class Foo : public test::group_test<G, SALT> {};
//   TYPED_TEST_SUITE(Foo, test::all_groups, test::group_names);
//   template <class C> class Bar : public test::curve_test<C, SALT> {};
//   TYPED_TEST_SUITE(Bar, test::curves, cuzk::test::curve_names);
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "curves_under_test.hpp"
#include "ec/batch_affine.hpp"
#include "ec/config.hpp"
#include "ec/scalar_mul.hpp"
#include "msm/msm.hpp"
#include "random.hpp"
#include "seed.hpp"

namespace cuzk::msm::test {

using curves = cuzk::test::curves_under_test;

/* r - 1 */
template <class C>
ff::fr<C> minus_one() {
  return -ff::fr<C>::one();
}
using cuzk::test::random_fr;
using cuzk::test::random_frs;
using cuzk::test::random_scalar;
template <class F>
std::vector<scalar_limbs_t> canonical(std::span<const F> s) {
  std::vector<scalar_limbs_t> out(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) out[i] = s[i].to_canonical();
  return out;
}
template <class F>
std::vector<scalar_limbs_t> canonical(const std::vector<F>& s) {
  return canonical(std::span<const F>(s));
}

/* G1 or G2 (Group = ec::g1_group<C>, ec::g2_group<C>) with its MSM */
template <class Group>
struct group : group_msm<Group>, cuzk::test::group<Group> {
  using curve_t = Group;  // what xyzz<>, bucket_accumulator<>, reduce_buckets<> take
  using C = typename Group::curve;
  using jac_t = ec::jacobian<Group>;
  using aff_t = typename jac_t::affine_t;
  using fr_t = ff::fr<C>;

  static std::string name() { return std::string(cuzk::test::curve_name<C>) + "_" + Group::name; }

  static fr_t random_fr(std::mt19937_64& g) { return cuzk::test::random_fr<C>(g); }
  static std::vector<fr_t> random_frs(std::mt19937_64& g, std::size_t n) { return cuzk::test::random_frs<C>(g, n); }
};

/* G1 and G2 of every curve under test */
template <class Curves>
struct groups_of;
template <class... Cs>
struct groups_of<::testing::Types<Cs...>> {
  using type = ::testing::Types<group<ec::g1_group<Cs>>..., group<ec::g2_group<Cs>>...>;
};
using all_groups = typename groups_of<curves>::type;

struct group_names {
  template <class G>
  static std::string GetName(int) {
    return G::name();
  }
};

/* Fixtures with a generator seeded per run, per suite (Salt) and per type. */
template <class G, std::uint64_t Salt>
class group_test : public ::testing::Test {
 protected:
  std::mt19937_64 rng = cuzk::test::rng(std::hash<std::string>{}(G::name()) + Salt);
};
template <class C, std::uint64_t Salt>
class curve_test : public ::testing::Test {
 protected:
  std::mt19937_64 rng = cuzk::test::rng(std::hash<std::string>{}(cuzk::test::curve_name<C>)+Salt);
};

}  // namespace cuzk::msm::test
