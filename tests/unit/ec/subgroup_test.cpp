// On-curve and subgroup checks on BLS12-381 and BN254: the endomorphism
// checks agree with [r]P = O, points of the whole curve are refused (except
// on BN254's G1, which is the whole curve), cofactor clearing lands in the
// group.
#include <gtest/gtest.h>

#include "ec_test_util.hpp"
#include "seed.hpp"

namespace cuzk::ec {
namespace {

template <class G>
class Subgroup : public cuzk::test::ec_group_test<G, 2> {};
TYPED_TEST_SUITE(Subgroup, test::all_groups, test::group_names);

TYPED_TEST(Subgroup, MultiplesOfTheGeneratorAreInTheSubgroup) {
  using jac_t = typename TypeParam::jac_t;
  EXPECT_TRUE(in_subgroup(jac_t::generator()));
  EXPECT_TRUE(in_subgroup(jac_t::identity()));
  EXPECT_TRUE(in_subgroup(TypeParam::curve_t::generator()));
  for (int i = 0; i < 6; ++i) {
    auto p = TypeParam::random_point(this->rng);
    EXPECT_TRUE(in_subgroup_by_order(p));
    EXPECT_TRUE(in_subgroup(p));
    EXPECT_TRUE(in_subgroup(p.to_affine()));
  }
}

TYPED_TEST(Subgroup, CurvePointsOutsideTheSubgroupAreRejected) {
  using jac_t = typename TypeParam::jac_t;
  for (int i = 0; i < 6; ++i) {
    auto a = TypeParam::random_curve_point(this->rng);
    ASSERT_TRUE(is_on_curve(a));
    auto p = jac_t::from_affine(a);
    EXPECT_TRUE(p.is_on_curve());
    if constexpr (TypeParam::has_cofactor) {
      EXPECT_FALSE(in_subgroup_by_order(p));
      EXPECT_FALSE(in_subgroup(p));
      EXPECT_FALSE(in_subgroup(a));
      /* a subgroup point plus a non-subgroup point is outside too */
      EXPECT_FALSE(in_subgroup(p + TypeParam::random_point(this->rng)));
      /* [r]P: only the cofactor part is left, which the check must see */
      auto t = mul_any(p, TypeParam::C::fr_params::modulus);
      ASSERT_FALSE(t.is_identity());
      EXPECT_FALSE(in_subgroup(t));
    } else {
      /* BN254 G1 = E(Fp) has prime order r: every curve point is in it */
      EXPECT_TRUE(in_subgroup_by_order(p));
      EXPECT_TRUE(in_subgroup(p));
      EXPECT_TRUE(in_subgroup(a));
    }
  }
}

TYPED_TEST(Subgroup, ClearingTheCofactorLandsInTheSubgroup) {
  using jac_t = typename TypeParam::jac_t;
  for (int i = 0; i < 4; ++i) {
    auto p = jac_t::from_affine(TypeParam::random_curve_point(this->rng));
    auto q = clear_cofactor(p);
    EXPECT_FALSE(q.is_identity());
    EXPECT_TRUE(q.is_on_curve());
    EXPECT_TRUE(in_subgroup_by_order(q));
    EXPECT_TRUE(in_subgroup(q));
  }
}

TYPED_TEST(Subgroup, PointsOffTheCurveAreSeen) {
  using aff_t = typename TypeParam::aff_t;
  auto p = TypeParam::random_point(this->rng).to_affine();
  aff_t bad = p;
  bad.y = bad.y + TypeParam::field_t::one();
  EXPECT_FALSE(is_on_curve(bad));
  EXPECT_FALSE(TypeParam::jac_t::from_affine(bad).is_on_curve());
  EXPECT_TRUE(is_on_curve(aff_t::identity()));
}

TEST(Subgroup, G1ClearCofactorIsMultiplicationByOneMinusX) {
  auto g = cuzk::test::rng(31);
  auto p = g1_jacobian_t::from_affine(test::g1::random_curve_point(g));
  /* h_eff = 1 - x = |x| + 1 */
  EXPECT_EQ(clear_cofactor(p), mul_any(p, ff::limbs::big<1>{consts::x_abs + 1}));
}

TEST(Subgroup, G2ClearCofactorMatchesTheRfcScalar) {
  /* RFC 9380 §8.8.2: h_eff = 3 (x^2 - 1) h2 */
  const ff::limbs::big<10> h_eff = {0xe8020005aaa95551, 0x59894c0adebbf6b4, 0xe954cbc06689f6a3, 0x2ec0ec69d7477c1a,
                                    0x6d82bf015d1212b0, 0x329c2f178731db95, 0x9986ff031508ffe1, 0x88e2a8e9145ad768,
                                    0x584c6a0ea91b3528, 0x0bc69f08f2ee75b3};
  auto g = cuzk::test::rng(32);
  auto p = g2_jacobian_t::from_affine(test::g2::random_curve_point(g));
  EXPECT_EQ(clear_cofactor(p), mul_any(p, h_eff));
}

/* BN254's h2 = 10069 * 5864401 * 1875725156269 * (a 178-bit prime) is square
   free and prime to r, so E'(Fp2) is cyclic and has points of each small
   prime order l: T = [h2 / l][r]P. psi(T) = [6x^2]T must fail for them (the
   check is complete only if psi - [6x^2] kills no point outside G2). */
TEST(Subgroup, Bn254G2SmallOrderPointsAreRejected) {
  using C = curves::bn254;
  using G = test::g2_of<C>;
  struct torsion {
    std::uint64_t l;
    ff::limbs::big<4> h2_over_l;
  };
  const torsion small[] = {
      {10069, {0x6c3cd334915f1659, 0x207142f7671af448, 0x9e28bcf65b5681da, 0x00013af7a58fce69}},
      {5864401, {0xd3865bed56710dfd, 0xd47f2c69679e3e75, 0x67a5f8660434f091, 0x0000008a712e2645}},
      {1875725156269, {0x57455809a5954261, 0x227489973709a736, 0x6f7cb3fd5082f93b, 0x00000000001c5dc5}},
  };
  auto g = cuzk::test::rng(33);
  for (const auto& s : small) {
    G::jac_t t;
    for (int tries = 0; tries < 4 && t.is_identity(); ++tries) {
      auto p = G::jac_t::from_affine(G::random_curve_point(g));
      t = mul_any(mul_any(p, C::fr_params::modulus), s.h2_over_l);
    }
    ASSERT_FALSE(t.is_identity()) << s.l;
    EXPECT_TRUE(t.is_on_curve());
    EXPECT_TRUE(mul_any(t, ff::limbs::big<1>{s.l}).is_identity()) << "order " << s.l;
    EXPECT_FALSE(in_subgroup_by_order(t)) << s.l;
    EXPECT_FALSE(in_subgroup(t)) << "a point of order " << s.l;
    EXPECT_FALSE(in_subgroup(t + G::random_point(g))) << s.l;
  }
}

TEST(Subgroup, Bn254ClearCofactorIsMultiplicationByH2) {
  using C = curves::bn254;
  using G = test::g2_of<C>;
  auto g = cuzk::test::rng(34);
  auto p = G::jac_t::from_affine(G::random_curve_point(g));
  /* h2 = 2p - r */
  ff::limbs::big<4> two_p, h2;
  ff::limbs::add(two_p, C::fp_params::modulus, C::fp_params::modulus);
  ff::limbs::sub(h2, two_p, C::fr_params::modulus);
  EXPECT_EQ(clear_cofactor(p), mul_any(p, h2));
  /* G1 is the whole curve: nothing to clear */
  auto q = test::g1_of<C>::jac_t::from_affine(test::g1_of<C>::random_curve_point(g));
  EXPECT_EQ(clear_cofactor(q), q);
}

}  // namespace
}  // namespace cuzk::ec
