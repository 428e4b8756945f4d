// Every constant of ec/constants.hpp recomputed from its definition.
#include <gtest/gtest.h>

#include "ec/endomorphism.hpp"
#include "ec_test_util.hpp"
#include "seed.hpp"

namespace cuzk::ec {
namespace {

/* p as a big integer, for exponents */
const ff::limbs::big<6> p = ff::fp_params::modulus;

ff::limbs::big<6> p_minus1_over(std::uint64_t d) {
  ff::limbs::big<6> e = p;
  e[0] -= 1;  // p is odd
  ff::limbs::u128 rem = 0;
  for (std::size_t i = 6; i-- > 0;) {
    ff::limbs::u128 cur = (rem << 64) | e[i];
    e[i] = (std::uint64_t)(cur / d);
    rem = cur % d;
  }
  return e;
}

TEST(EcConstants, CurveCoefficientIsFour) {
  EXPECT_EQ(g1_curve::b(), fp_t::from_u64(4));
  EXPECT_EQ(g2_curve::b(), (fp2_t{fp_t::from_u64(4), fp_t::from_u64(4)}));
}

TEST(EcConstants, BetaIsACubeRootOfUnityThatMakesPhiMinusXSquared) {
  fp_t beta = fp_t::from_montgomery(consts::beta_mont);
  EXPECT_FALSE(beta.is_one());
  EXPECT_TRUE((beta.sqr() * beta).is_one());
  /* beta = 2^((p-1)/3) or its square */
  fp_t g = fp_t::from_u64(2).pow(p_minus1_over(3));
  EXPECT_TRUE(beta == g || beta == g.sqr());
  /* the documented canonical value */
  const ff::fp_params::limbs_t documented = {0x2e01fffffffefffe, 0xde17d813620a0002, 0xddb3a93be6f89688,
                                             0xba69c6076a0f77ea, 0x5f19672fdf76ce51, 0};
  EXPECT_EQ(beta.to_canonical(), documented);
}

TEST(EcConstants, PsiCoefficientsArePowersOfOnePlusU) {
  fp2_t xi{fp_t::one(), fp_t::one()};  /* 1 + u */
  EXPECT_EQ(detail::psi_cx(), xi.pow(p_minus1_over(3)).inverse());
  EXPECT_EQ(detail::psi_cy(), xi.pow(p_minus1_over(2)).inverse());
}

TEST(EcConstants, GeneratorsAreTheStandardPointsOfOrderR) {
  EXPECT_TRUE(is_on_curve(g1_curve::generator()));
  EXPECT_TRUE(is_on_curve(g2_curve::generator()));
  EXPECT_TRUE(in_subgroup_by_order(g1_jacobian_t::generator()));
  EXPECT_TRUE(in_subgroup_by_order(g2_jacobian_t::generator()));
  EXPECT_EQ(g1_curve::generator().x.to_decimal(),
            "3685416753713387016781088315183077757961620795782546409894578378688607592378376318836054947676345821548104185464507");
  EXPECT_EQ(g2_curve::generator().x.c0.to_decimal(),
            "352701069587466618187139116011060144890029952792775240219908644239793785735715026873347600343865175952761926303160");
}

TEST(EcConstants, CofactorsTimesOrderKillEveryCurvePoint) {
  /* h1 = (x - 1)^2 / 3 = (|x| + 1)^2 / 3 */
  ff::limbs::u128 xm1 = (ff::limbs::u128)consts::x_abs + 1, h1 = xm1 * xm1 / 3;
  EXPECT_EQ(xm1 * xm1 % 3, 0u);
  EXPECT_EQ(consts::h1[0], (std::uint64_t)h1);
  EXPECT_EQ(consts::h1[1], (std::uint64_t)(h1 >> 64));
  auto g = cuzk::test::rng(41);
  for (int i = 0; i < 3; ++i) {
    auto p1 = g1_jacobian_t::from_affine(test::g1::random_curve_point(g));
    EXPECT_FALSE(mul_any(p1, consts::h1).is_identity());
    EXPECT_TRUE(mul_any(mul_any(p1, consts::h1), ff::fr_params::modulus).is_identity());
    auto p2 = g2_jacobian_t::from_affine(test::g2::random_curve_point(g));
    EXPECT_FALSE(mul_any(p2, consts::h2).is_identity());
    EXPECT_TRUE(mul_any(mul_any(p2, consts::h2), ff::fr_params::modulus).is_identity());
  }
}

TEST(EcConstants, XGeneratesTheOrder) {
  /* r = x^4 - x^2 + 1, computed in Fr must give 0 */
  fr_t x = -fr_t::from_u64(consts::x_abs), x2 = x.sqr();
  EXPECT_TRUE((x2.sqr() - x2 + fr_t::one()).is_zero());
}

}  // namespace
}  // namespace cuzk::ec
