// On-curve and subgroup checks: the endomorphism checks agree with [r]P = O,
// points of the whole curve are refused, cofactor clearing lands in the group.
#include <gtest/gtest.h>

#include "ec_test_util.hpp"
#include "seed.hpp"

namespace cuzk::ec {
namespace {

template <class G>
class Subgroup : public cuzk::test::group_test<G, 2> {};
TYPED_TEST_SUITE(Subgroup, test::both_groups);

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
    EXPECT_FALSE(in_subgroup_by_order(p));
    EXPECT_FALSE(in_subgroup(p));
    EXPECT_FALSE(in_subgroup(a));
    /* a subgroup point plus a non-subgroup point is outside too */
    EXPECT_FALSE(in_subgroup(p + TypeParam::random_point(this->rng)));
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

}  // namespace
}  // namespace cuzk::ec
