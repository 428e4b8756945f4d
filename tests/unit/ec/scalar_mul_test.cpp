// Scalar multiplication on BLS12-381 and BN254: mul (BLS12-381's endomorphism
// methods, BN254's wNAF of k mod r) against plain wNAF and repeated addition,
// the algebra [a]P + [b]P = [a + b]P, [a]([b]P) = [ab]P, and the
// endomorphisms' eigenvalues.
#include <gtest/gtest.h>

#include "ec/endomorphism.hpp"
#include "ec_test_util.hpp"
#include "seed.hpp"

namespace cuzk::ec {
namespace {

constexpr int kRounds = 12;

template <class G>
class ScalarMul : public cuzk::test::ec_group_test<G, 1> {};
TYPED_TEST_SUITE(ScalarMul, test::all_groups, test::group_names);

/* BLS12-381: GLV (G1) / GLS (G2) against wNAF; BN254: wNAF of k mod r */
TYPED_TEST(ScalarMul, MulMatchesPlainWnaf) {
  for (int i = 0; i < kRounds; ++i) {
    auto p = TypeParam::random_point(this->rng);
    auto k = TypeParam::random_scalar(this->rng);
    EXPECT_EQ(mul(p, k), mul_any(p, k));
  }
}

TYPED_TEST(ScalarMul, SmallScalarsMatchRepeatedAddition) {
  using jac_t = typename TypeParam::jac_t;
  auto p = TypeParam::random_point(this->rng);
  jac_t sum;
  for (std::uint64_t k = 0; k < 40; ++k) {
    EXPECT_EQ(mul(p, scalar_limbs_t{k, 0, 0, 0}), sum) << k;
    EXPECT_EQ(mul_any(p, ff::limbs::big<1>{k}), sum) << k;
    sum += p;
  }
}

TYPED_TEST(ScalarMul, SumOfScalarsGivesSumOfMultiples) {
  for (int i = 0; i < kRounds; ++i) {
    auto p = TypeParam::random_point(this->rng);
    auto a = TypeParam::random_fr(this->rng), b = TypeParam::random_fr(this->rng);
    EXPECT_EQ(mul(p, a + b), mul(p, a) + mul(p, b)); /* (a + b)P = aP + bP */
  }
}

TYPED_TEST(ScalarMul, MultiplicationDistributesOverPointAddition) {
  for (int i = 0; i < kRounds; ++i) {
    auto p = TypeParam::random_point(this->rng), q = TypeParam::random_point(this->rng);
    auto k = TypeParam::random_fr(this->rng);
    EXPECT_EQ(mul(p + q, k), mul(p, k) + mul(q, k)); /* k(P + Q) = kP + kQ */
  }
}

TYPED_TEST(ScalarMul, ProductOfScalarsComposes) {
  for (int i = 0; i < kRounds; ++i) {
    auto p = TypeParam::random_point(this->rng);
    auto a = TypeParam::random_fr(this->rng), b = TypeParam::random_fr(this->rng);
    EXPECT_EQ(mul(mul(p, b), a), mul(p, a * b)); /* a(bP) = (ab)P */
  }
}

TYPED_TEST(ScalarMul, OrderTimesPointIsIdentity) {
  using jac_t = typename TypeParam::jac_t;
  const scalar_limbs_t r = TypeParam::C::fr_params::modulus;
  for (int i = 0; i < 4; ++i) {
    auto p = TypeParam::random_point(this->rng);
    EXPECT_TRUE(mul_any(p, r).is_identity());
    EXPECT_TRUE(mul(p, r).is_identity());  // r reduces to 0
  }
  EXPECT_TRUE(mul_any(jac_t::generator(), r).is_identity());
}

TYPED_TEST(ScalarMul, ScalarsAtOrAboveTheOrderReduceModR) {
  auto p = TypeParam::random_point(this->rng);
  scalar_limbs_t r = TypeParam::C::fr_params::modulus, r_minus1 = r, r_plus5 = r, all_ones;
  ff::limbs::sub(r_minus1, r, scalar_limbs_t{1, 0, 0, 0});
  ff::limbs::add(r_plus5, r, scalar_limbs_t{5, 0, 0, 0});
  all_ones.fill(~0ull);
  EXPECT_EQ(mul(p, r_minus1), -p);
  EXPECT_EQ(mul(p, r_plus5), mul(p, scalar_limbs_t{5, 0, 0, 0}));
  EXPECT_EQ(mul(p, all_ones), mul_any(p, all_ones));  // 2^256 - 1 > 2r (BLS12-381), > 5r (BN254)
  EXPECT_TRUE(mul(TypeParam::jac_t::identity(), r_minus1).is_identity());
  /* m r + 3 for the largest m r below 2^256: the most subtractions reduce_mod_r
     makes (m = 2 on BLS12-381, 5 on BN254) */
  scalar_limbs_t mr = r, next;
  while (ff::limbs::add(next, mr, r) == 0) mr = next;
  ff::limbs::add(mr, mr, scalar_limbs_t{3, 0, 0, 0});
  EXPECT_EQ(mul(p, mr), mul(p, scalar_limbs_t{3, 0, 0, 0}));
  EXPECT_EQ(mul(p, mr), mul_any(p, mr));
}

TYPED_TEST(ScalarMul, FrScalarAndAffineOverloadsAgree) {
  auto p = TypeParam::random_point(this->rng);
  auto k = TypeParam::random_fr(this->rng);
  EXPECT_EQ(mul(p, k), mul(p, k.to_canonical()));
  EXPECT_EQ(mul(p.to_affine(), k), mul(p, k));
}

TYPED_TEST(ScalarMul, MulByXMatchesTheScalarX) {
  using C = typename TypeParam::C;
  /* BLS12-381: x = -|x| = r - |x| mod r; BN254: x > 0 */
  scalar_limbs_t x_mod_r = C::fr_params::modulus;
  if (C::x_negative)
    ff::limbs::sub(x_mod_r, x_mod_r, scalar_limbs_t{C::x_abs, 0, 0, 0});
  else
    x_mod_r = {C::x_abs, 0, 0, 0};
  EXPECT_EQ(x_mod_r, test::x_mod_r<C>());
  auto p = TypeParam::random_point(this->rng);
  EXPECT_EQ(mul_by_x_abs(p), mul_any(p, ff::limbs::big<1>{C::x_abs}));
  EXPECT_EQ(mul_by_x(p), mul_any(p, x_mod_r));
  /* on a whole-curve point too (mul_by_x is plain double-and-add) */
  auto q = TypeParam::jac_t::from_affine(TypeParam::random_curve_point(this->rng));
  EXPECT_EQ(mul_by_x_abs(q), mul_any(q, ff::limbs::big<1>{C::x_abs}));
}

TEST(Endomorphism, PhiActsOnG1AsMinusXSquared) {
  auto g = cuzk::test::rng(21);
  auto p = test::g1::random_point(g);
  ff::limbs::big<2> x2; /* x^2 */
  ff::limbs::u128 sq = (ff::limbs::u128)consts::x_abs * consts::x_abs;
  x2 = {(std::uint64_t)sq, (std::uint64_t)(sq >> 64)};
  EXPECT_EQ(phi(p), -mul_any(p, x2));
  EXPECT_EQ(phi(p.to_affine()), phi(p).to_affine());
}

template <class C>
class Psi : public cuzk::test::curve_test<C, 22> {};
TYPED_TEST_SUITE(Psi, test::both_curves, test::curve_names);

/* psi acts on G2 as [p mod r]: [x] on BLS12-381, [6x^2] on BN254 */
TYPED_TEST(Psi, ActsOnG2AsPModR) {
  using C = TypeParam;
  using G = test::g2_of<C>;
  auto p = G::random_point(this->rng);
  const auto pr = test::p_in_fr<C>();
  EXPECT_EQ(psi(p), mul_any(p, pr.to_canonical()));
  EXPECT_EQ(psi(psi(p)), mul_any(p, (pr * pr).to_canonical())); /* psi^2 = [p^2] */
  if constexpr (test::is_bn254<C>) {
    ff::limbs::u128 x = C::x_abs, x2 = x * x; /* 6 x^2 < 2^128 */
    ff::limbs::u128 six_x2 = 6 * x2;
    EXPECT_EQ(psi(p), mul_any(p, ff::limbs::big<2>{(std::uint64_t)six_x2, (std::uint64_t)(six_x2 >> 64)}));
    /* the [6x^2] subgroup check's own chain */
    auto xx = mul_by_x(mul_by_x(p));
    EXPECT_EQ(psi(p), (xx + xx.dbl()).dbl());
  } else {
    EXPECT_EQ(psi(p), -mul_any(p, ff::limbs::big<1>{C::x_abs}));
    /* psi^2 = [x^2] on G2 */
    EXPECT_EQ(psi(psi(p)), mul_by_x(mul_by_x(p)));
  }
  EXPECT_EQ(psi(p.to_affine()), psi(p).to_affine());
  EXPECT_TRUE(psi(typename G::aff_t{}).infinity);
  EXPECT_TRUE(psi(G::jac_t::identity()).is_identity());
}

/* On the whole twist psi is still an endomorphism: it maps curve points to curve
   points and respects addition (a wrong coefficient breaks one or the other). */
TYPED_TEST(Psi, IsAnEndomorphismOfTheTwist) {
  using G = test::g2_of<TypeParam>;
  for (int i = 0; i < 3; ++i) {
    auto a = G::jac_t::from_affine(G::random_curve_point(this->rng));
    auto b = G::jac_t::from_affine(G::random_curve_point(this->rng));
    EXPECT_TRUE(psi(a).is_on_curve());
    EXPECT_TRUE(is_on_curve(psi(a.to_affine())));
    EXPECT_EQ(psi(a + b), psi(a) + psi(b));
    EXPECT_EQ(psi(a.dbl()), psi(a).dbl());
  }
}

template <class C>
class ScalarRecoding : public cuzk::test::curve_test<C, 23> {};
TYPED_TEST_SUITE(ScalarRecoding, test::both_curves, test::curve_names);

TYPED_TEST(ScalarRecoding, WnafDigitsReconstructTheScalar) {
  using fr_t = ff::fr<TypeParam>;
  auto& g = this->rng;
  for (unsigned w = 2; w <= 7; ++w) {
    for (int i = 0; i < 50; ++i) {
      scalar_limbs_t k = test::g1_of<TypeParam>::random_scalar(g);
      if (i == 0) k.fill(~0ull);
      std::int8_t d[257];
      std::size_t len = wnaf(k, w, d);
      /* Horner in Fr: sum d_i 2^i */
      fr_t acc = fr_t::zero(), two = fr_t::from_u64(2);
      std::size_t last_nonzero = 1000;
      for (std::size_t j = len; j-- > 0;) {
        acc = acc * two;
        if (d[j] > 0) acc += fr_t::from_u64((std::uint64_t)d[j]);
        if (d[j] < 0) acc -= fr_t::from_u64((std::uint64_t)-d[j]);
        if (d[j] != 0) {
          EXPECT_EQ(d[j] & 1, 1);
          EXPECT_LT(std::abs(d[j]), 1 << (w - 1));
          if (last_nonzero != 1000) {
            EXPECT_GE(last_nonzero - j, w);
          }
          last_nonzero = j;
        }
      }
      scalar_limbs_t kr = reduce_mod_r<TypeParam>(k);
      EXPECT_EQ(acc, *fr_t::from_canonical(kr));
    }
  }
}

TYPED_TEST(ScalarRecoding, ReduceModRIsTheRemainder) {
  using fr_t = ff::fr<TypeParam>;
  const scalar_limbs_t r = TypeParam::fr_params::modulus;
  scalar_limbs_t all_ones, r_minus1;
  all_ones.fill(~0ull);
  ff::limbs::sub(r_minus1, r, scalar_limbs_t{1, 0, 0, 0});
  /* 2^256 - 1 = R - 1 = (R mod r) - 1 mod r, R mod r the Montgomery one */
  scalar_limbs_t want = TypeParam::fr_params::r1;
  ff::limbs::sub(want, want, scalar_limbs_t{1, 0, 0, 0});
  EXPECT_EQ(reduce_mod_r<TypeParam>(all_ones), want);
  EXPECT_EQ(reduce_mod_r<TypeParam>(r), scalar_limbs_t{});
  EXPECT_EQ(reduce_mod_r<TypeParam>(r_minus1), r_minus1);
  for (int i = 0; i < 100; ++i) {
    scalar_limbs_t k;
    for (auto& l : k) l = this->rng();
    scalar_limbs_t kr = reduce_mod_r<TypeParam>(k);
    EXPECT_TRUE(ff::limbs::less(kr, r));
    EXPECT_EQ(*fr_t::from_canonical(kr), test::to_fr<TypeParam>(k));
  }
}

TEST(ScalarRecoding, BaseXDigitsReconstructTheScalar) {
  auto g = cuzk::test::rng(24);
  for (int i = 0; i < 200; ++i) {
    scalar_limbs_t k = test::random_scalar(g);
    if (i == 0) ff::limbs::sub(k, ff::fr_params::modulus, scalar_limbs_t{1, 0, 0, 0});
    auto d = split_base_x(k);
    fr_t xa = fr_t::from_u64(consts::x_abs), acc = fr_t::zero();
    for (int j = 3; j >= 0; --j) {
      EXPECT_LT(d[j], consts::x_abs);
      acc = acc * xa + fr_t::from_u64(d[j]);
    }
    EXPECT_EQ(acc, *fr_t::from_canonical(k));
  }
}

}  // namespace
}  // namespace cuzk::ec
