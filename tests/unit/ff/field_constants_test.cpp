// Every constant of constants.hpp re-derived with GMP from the modulus alone.
#include "gmp_oracle.hpp"

namespace cuzk::test {
namespace {

template <class F>
class FieldConstants : public ::testing::Test {};
TYPED_TEST_SUITE(FieldConstants, prime_fields, field_names);

template <class F>
mpz_class powm(const mpz_class& x, const mpz_class& e) {
  mpz_class r;
  mpz_powm(r.get_mpz_t(), x.get_mpz_t(), e.get_mpz_t(), gmp_field<F>::p().get_mpz_t());
  return r;
}

TYPED_TEST(FieldConstants, ModulusIsAnOddPrimeOfTheStatedBitLength) {
  using G = gmp_field<TypeParam>;
  EXPECT_NE(mpz_probab_prime_p(G::p().get_mpz_t(), 50), 0);
  EXPECT_EQ(mpz_sizeinbase(G::p().get_mpz_t(), 2), TypeParam::bits);
  /* the no-carry Montgomery product needs a top limb below 2^63 - 1 */
  EXPECT_LT(TypeParam::params::modulus.back(), (std::uint64_t(1) << 63) - 1);
}

TYPED_TEST(FieldConstants, MontgomeryConstantsArePowersOfR) {
  using G = gmp_field<TypeParam>;
  using P = typename TypeParam::params;
  EXPECT_EQ(to_mpz(P::r1), G::r());
  EXPECT_EQ(to_mpz(P::r2), G::reduce(G::r() * G::r()));
  EXPECT_EQ(to_mpz(P::r3), G::reduce(G::r() * G::r() * G::r()));
}

TYPED_TEST(FieldConstants, InvIsMinusModulusInverseModuloTwoTo64) {
  using G = gmp_field<TypeParam>;
  mpz_class inv;
  mpz_class w = pow2(64);
  mpz_invert(inv.get_mpz_t(), G::p().get_mpz_t(), w.get_mpz_t());
  EXPECT_EQ(to_mpz(std::array<std::uint64_t, 1>{TypeParam::params::inv}), mod(-inv, w));
}

TYPED_TEST(FieldConstants, TwoAdicDecompositionAndLegendreExponentMatch) {
  using G = gmp_field<TypeParam>;
  using P = typename TypeParam::params;
  mpz_class pm1 = G::p() - 1;
  unsigned s = mpz_scan1(pm1.get_mpz_t(), 0);
  mpz_class t = pm1 >> s;
  EXPECT_EQ(s, P::two_adicity);
  EXPECT_EQ(to_mpz(P::t_minus1_over2), (t - 1) / 2);
  EXPECT_EQ(to_mpz(P::m_minus1_over2), pm1 / 2);
}

TYPED_TEST(FieldConstants, RootOfUnityHasExactOrderTwoToTheS) {
  using G = gmp_field<TypeParam>;
  using P = typename TypeParam::params;
  mpz_class w = G::value(TypeParam::from_montgomery(P::root_of_unity));
  EXPECT_EQ(powm<TypeParam>(w, pow2(P::two_adicity)), 1);
  EXPECT_EQ(powm<TypeParam>(w, pow2(P::two_adicity - 1)), G::p() - 1);
}

TEST(FrConstants, GeneratorIsSevenAndANonResidue) {
  using G = gmp_field<ff::fr_t>;
  mpz_class g = G::value(ff::fr_t::from_montgomery(ff::fr_params::generator));
  EXPECT_EQ(g, 7);
  EXPECT_EQ(mpz_legendre(g.get_mpz_t(), G::p().get_mpz_t()), -1);
  /* root_of_unity = 7^t */
  mpz_class t = (G::p() - 1) >> ff::fr_params::two_adicity;
  EXPECT_EQ(G::value(ff::fr_t::from_montgomery(ff::fr_params::root_of_unity)), powm<ff::fr_t>(7, t));
}

TEST(FpConstants, ModulusFollowsFromTheCurveParameter) {
  /* x = -0xd201000000010000: p = (x - 1)^2 (x^4 - x^2 + 1) / 3 + x, r = x^4 - x^2 + 1 */
  mpz_class x("-d201000000010000", 16);
  mpz_class r = x * x * x * x - x * x + 1;
  EXPECT_EQ(gmp_field<ff::fr_t>::p(), r);
  EXPECT_EQ(gmp_field<ff::fp_t>::p(), (x - 1) * (x - 1) * r / 3 + x);
}

}  // namespace
}  // namespace cuzk::test
