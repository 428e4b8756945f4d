// Every constant of curves/bls12_381_curve_constants.hpp (BLS12-381) and the curve constants of
// curves/bn254.hpp the ec code uses, recomputed from their definitions with
// cuzk's own field arithmetic (tests/unit/curves checks BN254's with GMP).
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
  fp2_t xi{fp_t::one(), fp_t::one()}; /* 1 + u */
  const auto& c = detail::psi_coefficients<curves::bls12_381>::get();
  EXPECT_EQ(c.cx, xi.pow(p_minus1_over(3)).inverse());
  EXPECT_EQ(c.cy, xi.pow(p_minus1_over(2)).inverse());
  EXPECT_TRUE(c.cx.c0.is_zero()); /* pure imaginary: psi's x costs two Fp products */
}

TEST(EcConstants, GeneratorsAreTheStandardPointsOfOrderR) {
  EXPECT_TRUE(is_on_curve(g1_curve::generator()));
  EXPECT_TRUE(is_on_curve(g2_curve::generator()));
  EXPECT_TRUE(in_subgroup_by_order(g1_jacobian_t::generator()));
  EXPECT_TRUE(in_subgroup_by_order(g2_jacobian_t::generator()));
  EXPECT_EQ(g1_curve::generator().x.to_decimal(),
            "3685416753713387016781088315183077757961620795782546409894578378688607592378376318836054947676345821548104"
            "185464507");
  EXPECT_EQ(g2_curve::generator().x.c0.to_decimal(),
            "3527010695874666181871391160110601448900299527927752402199086442397937857357150268733476003438651759527619"
            "26303160");
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

/* ---- both curves ---- */

template <class C>
class CurveConstants : public cuzk::test::curve_test<C, 42> {};
TYPED_TEST_SUITE(CurveConstants, test::both_curves, test::curve_names);

/* (p - 1) / d for d | p - 1, as a big integer of the width of Fp */
template <class C>
auto p_minus1_over_c(std::uint64_t d) {
  constexpr std::size_t N = C::fp_params::n_limbs;
  ff::limbs::big<N> e = C::fp_params::modulus;
  e[0] -= 1;  // p is odd
  ff::limbs::u128 rem = 0;
  for (std::size_t i = N; i-- > 0;) {
    ff::limbs::u128 cur = (rem << 64) | e[i];
    e[i] = (std::uint64_t)(cur / d);
    rem = cur % d;
  }
  EXPECT_EQ(rem, 0u) << "p - 1 not divisible by " << d;
  return e;
}

/* xi = xi_c0 + u, the sextic non-residue */
template <class C>
ff::fp2<C> xi() {
  return {ff::fp<C>::from_u64(C::xi_c0), ff::fp<C>::one()};
}

TYPED_TEST(CurveConstants, TwistCoefficientIsBOverOrTimesXi) {
  using C = TypeParam;
  using fp2 = ff::fp2<C>;
  const fp2 b{g1_group<C>::b(), ff::fp<C>::zero()};
  if constexpr (C::twist_type == curves::twist::m)
    EXPECT_EQ(g2_group<C>::b(), b * xi<C>()); /* b' = b xi */
  else
    EXPECT_EQ(g2_group<C>::b() * xi<C>(), b); /* b' = b / xi */
  /* xi is neither a square nor a cube in Fp2 (so the twist is sextic):
     xi^((p^2 - 1) / 3) = N(xi^((p - 1) / 3)) != 1 */
  EXPECT_EQ(xi<C>().legendre(), -1);
  EXPECT_FALSE(xi<C>().pow(p_minus1_over_c<C>(3)).norm().is_one());
}

TYPED_TEST(CurveConstants, GeneratorsAreOnTheCurveAndHaveOrderR) {
  using C = TypeParam;
  EXPECT_TRUE(is_on_curve(g1_group<C>::generator()));
  EXPECT_TRUE(is_on_curve(g2_group<C>::generator()));
  EXPECT_FALSE(g1_group<C>::generator().infinity);
  EXPECT_FALSE(g2_group<C>::generator().infinity);
  EXPECT_TRUE(in_subgroup_by_order(g1_jacobian<C>::generator()));
  EXPECT_TRUE(in_subgroup_by_order(g2_jacobian<C>::generator()));
  EXPECT_TRUE(in_subgroup(g1_jacobian<C>::generator()));
  EXPECT_TRUE(in_subgroup(g2_jacobian<C>::generator()));
}

/* psi(x, y) = (conj(x) cx, conj(y) cy) with gamma(1, j) = xi^(j (p - 1) / 6):
   M-twist cx = 1 / gamma(1, 2), cy = 1 / gamma(1, 3); D-twist cx = gamma(1, 2),
   cy = gamma(1, 3). */
TYPED_TEST(CurveConstants, PsiCoefficientsAreTheFrobeniusGammas) {
  using C = TypeParam;
  const auto& c = detail::psi_coefficients<C>::get();
  auto g12 = xi<C>().pow(p_minus1_over_c<C>(3)), g13 = xi<C>().pow(p_minus1_over_c<C>(2));
  EXPECT_EQ(ff::tower::gamma<C>(1, 2), g12);
  EXPECT_EQ(ff::tower::gamma<C>(1, 3), g13);
  if constexpr (C::twist_type == curves::twist::m) {
    EXPECT_EQ(c.cx, g12.inverse());
    EXPECT_EQ(c.cy, g13.inverse());
  } else {
    EXPECT_EQ(c.cx, g12);
    EXPECT_EQ(c.cy, g13);
  }
}

/* psi is [p mod r] on G2, and p mod r = t - 1: x on BLS12-381 (t = x + 1),
   6x^2 on BN254 (t = 6x^2 + 1) */
TYPED_TEST(CurveConstants, PsiActsOnTheG2GeneratorAsPModR) {
  using C = TypeParam;
  const auto x = test::x_in_fr<C>();
  const auto pr = test::p_in_fr<C>();
  if constexpr (test::is_bn254<C>)
    EXPECT_EQ(pr, ff::fr<C>::from_u64(6) * x.sqr());
  else
    EXPECT_EQ(pr, x);
  auto g = g2_jacobian<C>::generator();
  EXPECT_EQ(psi(g), mul_any(g, pr.to_canonical()));
  EXPECT_EQ(psi(g2_group<C>::generator()), mul_any(g, pr.to_canonical()).to_affine());
}

/* ---- BN254 ---- */

using bn = curves::bn254;

TEST(EcConstantsBn254, CurveCoefficientsAreThreeAndThreeOverNinePlusU) {
  using fp = ff::fp<bn>;
  using fp2 = ff::fp2<bn>;
  EXPECT_EQ(g1_group<bn>::b(), fp::from_u64(3));
  const fp2 nine_plus_u{fp::from_u64(9), fp::one()};
  EXPECT_EQ(g2_group<bn>::b() * nine_plus_u, (fp2{fp::from_u64(3), fp::zero()}));
  EXPECT_EQ(bn::twist_type, curves::twist::d);
}

TEST(EcConstantsBn254, GeneratorsAreTheEip197Points) {
  EXPECT_EQ(g1_group<bn>::generator().x.to_decimal(), "1");
  EXPECT_EQ(g1_group<bn>::generator().y.to_decimal(), "2");
  const auto& g2 = g2_group<bn>::generator();
  EXPECT_EQ(g2.x.c0.to_decimal(), "10857046999023057135944570762232829481370756359578518086990519993285655852781");
  EXPECT_EQ(g2.x.c1.to_decimal(), "11559732032986387107991004021392285783925812861821192530917403151452391805634");
  EXPECT_EQ(g2.y.c0.to_decimal(), "8495653923123431417604973247489272438418190587263600148770280649306958101930");
  EXPECT_EQ(g2.y.c1.to_decimal(), "4082367875863433681332203403145435568316851327593401208105741076214120093531");
}

TEST(EcConstantsBn254, XGeneratesPAndR) {
  /* r = 36x^4 + 36x^3 + 18x^2 + 6x + 1 = 0 in Fr, p = 36x^4 + 36x^3 + 24x^2 + 6x + 1 = 0 in Fp */
  auto poly = [](auto x, std::uint64_t c2) {
    using F = decltype(x);
    auto x2 = x.sqr();
    return F::from_u64(36) * x2.sqr() + F::from_u64(36) * x2 * x + F::from_u64(c2) * x2 + F::from_u64(6) * x + F::one();
  };
  EXPECT_TRUE(poly(ff::fr<bn>::from_u64(bn::x_abs), 18).is_zero());
  EXPECT_TRUE(poly(ff::fp<bn>::from_u64(bn::x_abs), 24).is_zero());
  EXPECT_FALSE(bn::x_negative);
}

TEST(EcConstantsBn254, CofactorsTimesOrderKillEveryCurvePoint) {
  using G1 = test::g1_of<bn>;
  using G2 = test::g2_of<bn>;
  /* h2 = 2p - r = p - 1 + t */
  ff::limbs::big<4> h2_plus_r;
  EXPECT_EQ(ff::limbs::add(h2_plus_r, bn::g2_cofactor, bn::fr_params::modulus), 0u);
  ff::limbs::big<4> two_p;
  EXPECT_EQ(ff::limbs::add(two_p, bn::fp_params::modulus, bn::fp_params::modulus), 0u);
  EXPECT_EQ(h2_plus_r, two_p);
  auto g = cuzk::test::rng(43);
  for (int i = 0; i < 3; ++i) {
    /* h1 = 1: E(Fp) has prime order r */
    auto p1 = G1::jac_t::from_affine(G1::random_curve_point(g));
    EXPECT_TRUE(mul_any(p1, bn::fr_params::modulus).is_identity());
    auto p2 = G2::jac_t::from_affine(G2::random_curve_point(g));
    EXPECT_FALSE(mul_any(p2, bn::fr_params::modulus).is_identity());
    EXPECT_FALSE(mul_any(p2, bn::g2_cofactor).is_identity());
    EXPECT_TRUE(mul_any(mul_any(p2, bn::g2_cofactor), bn::fr_params::modulus).is_identity());
  }
}

}  // namespace
}  // namespace cuzk::ec
