// Legendre symbols and square roots in Fp and Fr of BLS12-381 and BN254
// against GMP's mpz_legendre (Tonelli-Shanks with s = 1, 32 and 28).
#include "gmp_oracle.hpp"

namespace cuzk::test {
namespace {

template <class F>
class FieldRoots : public ::testing::Test {};
TYPED_TEST_SUITE(FieldRoots, prime_fields, field_names);

template <class F>
int gmp_legendre(const mpz_class& x) {
  return mpz_legendre(x.get_mpz_t(), gmp_field<F>::p().get_mpz_t());
}

/* sqrt(x) squares back to x when (x/p) != -1, and is None exactly when (x/p) = -1 */
template <class F>
::testing::AssertionResult sqrt_agrees(const mpz_class& x) {
  using G = gmp_field<F>;
  auto r = G::element(x).sqrt();
  bool residue = gmp_legendre<F>(x) != -1;
  if (r.has_value() != residue)
    return ::testing::AssertionFailure() << "sqrt(" << hex(x) << ") " << (residue ? "missing" : "present")
                                         << ", GMP Legendre " << gmp_legendre<F>(x);
  if (!r) return ::testing::AssertionSuccess();
  mpz_class root = G::value(*r);
  if (G::reduce(root * root) != x) return ::testing::AssertionFailure() << hex(root) << "^2 != " << hex(x);
  return G::agrees(*r, root);
}

TYPED_TEST(FieldRoots, LegendreSymbolAgreesWithGmp) {
  using G = gmp_field<TypeParam>;
  auto g = test_rng();
  for (int i = 0; i < kRandomCases; ++i) {
    mpz_class x = G::random(g);
    ASSERT_EQ(G::element(x).legendre(), gmp_legendre<TypeParam>(x)) << "x = " << hex(x);
  }
  for (const auto& x : G::edge_values())
    ASSERT_EQ(G::element(x).legendre(), gmp_legendre<TypeParam>(x)) << "x = " << hex(x);
}

TYPED_TEST(FieldRoots, SqrtSquaresBackAndIsNoneExactlyForNonResidues) {
  using G = gmp_field<TypeParam>;
  auto g = test_rng();
  int non_residues = 0;
  for (int i = 0; i < kRandomCases; ++i) {
    mpz_class x = G::random(g);
    non_residues += gmp_legendre<TypeParam>(x) == -1;
    ASSERT_TRUE(sqrt_agrees<TypeParam>(x));
  }
  EXPECT_GT(non_residues, kRandomCases / 3);
  EXPECT_LT(non_residues, 2 * kRandomCases / 3);
  for (const auto& x : G::edge_values()) ASSERT_TRUE(sqrt_agrees<TypeParam>(x));
}

TYPED_TEST(FieldRoots, SqrtOfASquareIsThatValueOrItsNegation) {
  using G = gmp_field<TypeParam>;
  auto g = test_rng();
  for (int i = 0; i < kRandomCases / 4; ++i) {
    mpz_class y = G::random(g);
    auto r = G::element(y * y).sqrt();
    ASSERT_TRUE(r.has_value()) << "y = " << hex(y);
    mpz_class root = G::value(*r);
    ASSERT_TRUE(root == y || root == G::reduce(-y)) << "y = " << hex(y) << ", sqrt(y^2) = " << hex(root);
  }
}

TYPED_TEST(FieldRoots, SqrtOfEveryTwoPowerRootOfUnityIsFound) {
  using G = gmp_field<TypeParam>;
  /* w has order 2^s; w^(2^j) has order 2^(s-j) and is a square exactly when j >= 1 */
  mpz_class w = G::value(TypeParam::from_montgomery(TypeParam::params::root_of_unity));
  for (unsigned j = 0; j <= TypeParam::params::two_adicity; ++j, w = G::reduce(w * w)) {
    ASSERT_EQ(G::element(w).sqrt().has_value(), j >= 1) << "j = " << j;
    ASSERT_TRUE(sqrt_agrees<TypeParam>(w)) << "j = " << j;
  }
}

}  // namespace
}  // namespace cuzk::test
