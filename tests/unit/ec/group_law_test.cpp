// Group laws of G1 and G2 in Jacobian and affine form, on random points, for
// BLS12-381 and BN254.
#include <gtest/gtest.h>

#include <vector>

#include "ec/batch_affine.hpp"
#include "ec_test_util.hpp"
#include "seed.hpp"

namespace cuzk::ec {
namespace {

constexpr int kRounds = 16;

template <class G>
class GroupLaw : public cuzk::test::ec_group_test<G, 0> {
 protected:
  using jac_t = typename G::jac_t;
  using aff_t = typename G::aff_t;
  jac_t point() { return G::random_point(this->rng); }
};
TYPED_TEST_SUITE(GroupLaw, test::all_groups, test::group_names);

TYPED_TEST(GroupLaw, GeneratorIsOnTheCurve) {
  EXPECT_TRUE(TypeParam::jac_t::generator().is_on_curve());
  EXPECT_TRUE(is_on_curve(TypeParam::curve_t::generator()));
}

TYPED_TEST(GroupLaw, AdditionIsAssociativeAndCommutative) {
  for (int i = 0; i < kRounds; ++i) {
    auto a = this->point(), b = this->point(), c = this->point();
    EXPECT_EQ((a + b) + c, a + (b + c));
    EXPECT_EQ(a + b, b + a);
    EXPECT_TRUE((a + b).is_on_curve());
  }
}

TYPED_TEST(GroupLaw, IdentityIsNeutralAndNegationInverts) {
  using jac_t = typename TypeParam::jac_t;
  for (int i = 0; i < kRounds; ++i) {
    auto a = this->point();
    EXPECT_EQ(a + jac_t::identity(), a);
    EXPECT_EQ(jac_t::identity() + a, a);
    EXPECT_TRUE((a + (-a)).is_identity());
    EXPECT_TRUE((a - a).is_identity());
    EXPECT_EQ(-(-a), a);
  }
  EXPECT_TRUE(jac_t::identity().dbl().is_identity());
  EXPECT_TRUE((jac_t::identity() + jac_t::identity()).is_identity());
}

TYPED_TEST(GroupLaw, DoublingEqualsAddingAPointToItself) {
  for (int i = 0; i < kRounds; ++i) {
    auto a = this->point();
    EXPECT_EQ(a.dbl(), a + a);
    EXPECT_EQ(a.dbl(), a + a.to_affine());
    EXPECT_EQ(a.dbl() - a, a);
  }
}

TYPED_TEST(GroupLaw, MixedAdditionEqualsJacobianAddition) {
  using jac_t = typename TypeParam::jac_t;
  using aff_t = typename TypeParam::aff_t;
  for (int i = 0; i < kRounds; ++i) {
    auto a = this->point(), b = this->point();
    aff_t bb = b.to_affine();
    EXPECT_EQ(a + bb, a + b);
    EXPECT_EQ(add_mixed(a, bb), add(a, b));
    EXPECT_TRUE((a + (-bb) + bb) == a);
    EXPECT_TRUE((a + (-a.to_affine())).is_identity());
    EXPECT_EQ(jac_t::identity() + bb, b);
    EXPECT_EQ(a + aff_t::identity(), a);
  }
}

TYPED_TEST(GroupLaw, EqualityIsProjective) {
  using field_t = typename TypeParam::field_t;
  for (int i = 0; i < kRounds; ++i) {
    auto a = this->point(), b = this->point();
    field_t l = TypeParam::random_field(this->rng);
    auto scaled = a; /* (l^2 X, l^3 Y, l Z) is the same point */
    scaled.X = a.X * l.sqr();
    scaled.Y = a.Y * l.sqr() * l;
    scaled.Z = a.Z * l;
    EXPECT_EQ(scaled, a);
    EXPECT_FALSE(scaled == b);
    EXPECT_FALSE(a == -a);
    EXPECT_EQ(scaled.to_affine(), a.to_affine());
  }
}

TYPED_TEST(GroupLaw, AffineRoundTripKeepsThePoint) {
  using jac_t = typename TypeParam::jac_t;
  for (int i = 0; i < kRounds; ++i) {
    auto a = this->point();
    auto aa = a.to_affine();
    EXPECT_FALSE(aa.infinity);
    EXPECT_TRUE(is_on_curve(aa));
    EXPECT_EQ(jac_t::from_affine(aa), a);
  }
  EXPECT_TRUE(jac_t::identity().to_affine().infinity);
  EXPECT_TRUE(jac_t::from_affine({}).is_identity());
}

TYPED_TEST(GroupLaw, BatchToAffineMatchesOneByOne) {
  using jac_t = typename TypeParam::jac_t;
  std::vector<jac_t> pts;
  for (int i = 0; i < kRounds; ++i) pts.push_back(this->point() + this->point());  // Z != 1
  pts.insert(pts.begin() + 3, jac_t::identity());
  pts.push_back(jac_t::identity());
  auto aff = batch_to_affine<typename TypeParam::curve_t>(pts);
  ASSERT_EQ(aff.size(), pts.size());
  for (std::size_t i = 0; i < pts.size(); ++i) EXPECT_EQ(aff[i], pts[i].to_affine()) << i;
}

TYPED_TEST(GroupLaw, BatchAffineAdditionMatchesJacobian) {
  using jac_t = typename TypeParam::jac_t;
  using aff_t = typename TypeParam::aff_t;
  std::vector<aff_t> acc, add;
  for (int i = 0; i < kRounds; ++i) {
    acc.push_back(this->point().to_affine());
    add.push_back(this->point().to_affine());
  }
  acc.push_back(add[0]);  // P + P: the tangent
  add.push_back(add[0]);
  acc.push_back(add[1]);  // P + (-P) = O
  add.push_back(-add[1]);
  acc.push_back(aff_t::identity());  // O + P
  add.push_back(add[2]);
  acc.push_back(add[3]);  // P + O
  add.push_back(aff_t::identity());
  std::vector<jac_t> expect;
  for (std::size_t i = 0; i < acc.size(); ++i) expect.push_back(jac_t::from_affine(acc[i]) + add[i]);
  batch_add_affine<typename TypeParam::field_t>(acc, add);
  for (std::size_t i = 0; i < acc.size(); ++i) EXPECT_EQ(jac_t::from_affine(acc[i]), expect[i]) << i;
}

template <class C>
class BatchInverse : public cuzk::test::curve_test<C, 10> {};
TYPED_TEST_SUITE(BatchInverse, test::both_curves, test::curve_names);

/* F = Fp or Fp2 of the curve; one zero among nine random elements at index zero_at */
template <class F>
void check_batch_inverse(std::vector<F> v, std::size_t zero_at) {
  v[zero_at] = F::zero();
  auto w = v;
  batch_inverse<F>(w);
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (v[i].is_zero())
      EXPECT_TRUE(w[i].is_zero());
    else
      EXPECT_TRUE((v[i] * w[i]).is_one()) << i;
  }
}

TYPED_TEST(BatchInverse, InvertsEveryNonzeroAndKeepsZeros) {
  std::vector<ff::fp<TypeParam>> v1;
  std::vector<ff::fp2<TypeParam>> v2;
  for (int i = 0; i < 9; ++i) {
    v1.push_back(test::g1_of<TypeParam>::random_field(this->rng));
    v2.push_back(test::g2_of<TypeParam>::random_field(this->rng));
  }
  check_batch_inverse(v1, 4);
  check_batch_inverse(v2, 0);
}

}  // namespace
}  // namespace cuzk::ec
