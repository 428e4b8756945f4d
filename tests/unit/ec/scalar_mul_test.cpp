// Scalar multiplication: the endomorphism methods against plain wNAF and
// repeated addition, and the algebra [a]P + [b]P = [a + b]P, [a]([b]P) = [ab]P.
#include <gtest/gtest.h>

#include "ec/endomorphism.hpp"
#include "ec_test_util.hpp"
#include "seed.hpp"

namespace cuzk::ec {
namespace {

constexpr int kRounds = 12;

template <class G>
class ScalarMul : public cuzk::test::group_test<G, 1> {};
TYPED_TEST_SUITE(ScalarMul, test::both_groups);

TYPED_TEST(ScalarMul, EndomorphismMethodMatchesPlainWnaf) {
  for (int i = 0; i < kRounds; ++i) {
    auto p = TypeParam::random_point(this->rng);
    auto k = test::random_scalar(this->rng);
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
    fr_t a = test::random_fr(this->rng), b = test::random_fr(this->rng);
    EXPECT_EQ(mul(p, a + b), mul(p, a) + mul(p, b));  /* (a + b)P = aP + bP */
  }
}

TYPED_TEST(ScalarMul, MultiplicationDistributesOverPointAddition) {
  for (int i = 0; i < kRounds; ++i) {
    auto p = TypeParam::random_point(this->rng), q = TypeParam::random_point(this->rng);
    fr_t k = test::random_fr(this->rng);
    EXPECT_EQ(mul(p + q, k), mul(p, k) + mul(q, k));  /* k(P + Q) = kP + kQ */
  }
}

TYPED_TEST(ScalarMul, ProductOfScalarsComposes) {
  for (int i = 0; i < kRounds; ++i) {
    auto p = TypeParam::random_point(this->rng);
    fr_t a = test::random_fr(this->rng), b = test::random_fr(this->rng);
    EXPECT_EQ(mul(mul(p, b), a), mul(p, a * b));  /* a(bP) = (ab)P */
  }
}

TYPED_TEST(ScalarMul, OrderTimesPointIsIdentity) {
  using jac_t = typename TypeParam::jac_t;
  auto r = ff::fr_params::modulus;
  for (int i = 0; i < 4; ++i) {
    auto p = TypeParam::random_point(this->rng);
    EXPECT_TRUE(mul_any(p, r).is_identity());
    EXPECT_TRUE(mul(p, r).is_identity());  // r reduces to 0
  }
  EXPECT_TRUE(mul_any(jac_t::generator(), r).is_identity());
}

TYPED_TEST(ScalarMul, ScalarsAtOrAboveTheOrderReduceModR) {
  auto p = TypeParam::random_point(this->rng);
  scalar_limbs_t r = ff::fr_params::modulus, r_minus1 = r, r_plus5 = r, all_ones;
  ff::limbs::sub(r_minus1, r, scalar_limbs_t{1, 0, 0, 0});
  ff::limbs::add(r_plus5, r, scalar_limbs_t{5, 0, 0, 0});
  all_ones.fill(~0ull);
  EXPECT_EQ(mul(p, r_minus1), -p);
  EXPECT_EQ(mul(p, r_plus5), mul(p, scalar_limbs_t{5, 0, 0, 0}));
  EXPECT_EQ(mul(p, all_ones), mul_any(p, all_ones));  // 2^256 - 1 > 2r
  EXPECT_TRUE(mul(TypeParam::jac_t::identity(), r_minus1).is_identity());
}

TYPED_TEST(ScalarMul, FrScalarAndAffineOverloadsAgree) {
  auto p = TypeParam::random_point(this->rng);
  fr_t k = test::random_fr(this->rng);
  EXPECT_EQ(mul(p, k), mul(p, k.to_canonical()));
  EXPECT_EQ(mul(p.to_affine(), k), mul(p, k));
}

TYPED_TEST(ScalarMul, MulByXMatchesTheScalarX) {
  /* x = -|x| = r - |x| mod r */
  scalar_limbs_t x_mod_r;
  ff::limbs::sub(x_mod_r, ff::fr_params::modulus, scalar_limbs_t{consts::x_abs, 0, 0, 0});
  auto p = TypeParam::random_point(this->rng);
  EXPECT_EQ(mul_by_x_abs(p), mul_any(p, ff::limbs::big<1>{consts::x_abs}));
  EXPECT_EQ(mul_by_x(p), mul_any(p, x_mod_r));
}

TEST(Endomorphism, PhiActsOnG1AsMinusXSquared) {
  auto g = cuzk::test::rng(21);
  auto p = test::g1::random_point(g);
  ff::limbs::big<2> x2;  /* x^2 */
  ff::limbs::u128 sq = (ff::limbs::u128)consts::x_abs * consts::x_abs;
  x2 = {(std::uint64_t)sq, (std::uint64_t)(sq >> 64)};
  EXPECT_EQ(phi(p), -mul_any(p, x2));
  EXPECT_EQ(phi(p.to_affine()), phi(p).to_affine());
}

TEST(Endomorphism, PsiActsOnG2AsX) {
  auto g = cuzk::test::rng(22);
  auto p = test::g2::random_point(g);
  EXPECT_EQ(psi(p), -mul_any(p, ff::limbs::big<1>{consts::x_abs}));
  EXPECT_EQ(psi(p.to_affine()), psi(p).to_affine());
  /* psi^2 = [x^2] on G2 */
  EXPECT_EQ(psi(psi(p)), mul_by_x(mul_by_x(p)));
}

TEST(ScalarRecoding, WnafDigitsReconstructTheScalar) {
  auto g = cuzk::test::rng(23);
  for (unsigned w = 2; w <= 7; ++w) {
    for (int i = 0; i < 50; ++i) {
      scalar_limbs_t k = test::random_scalar(g);
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
      scalar_limbs_t kr = reduce_mod_r(k);
      EXPECT_EQ(acc, *fr_t::from_canonical(kr));
    }
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
