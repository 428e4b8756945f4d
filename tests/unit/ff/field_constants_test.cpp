// Every constant of the four fields (curves/bls12_381_field_constants.hpp for BLS12-381,
// curves/bn254_constants.hpp for BN254) re-derived with GMP from the modulus
// alone, and the moduli from the curves' parameters.
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

/* What the curves' specifications state, written out here independently of
   the constants under test: the curve parameter x and p, r as polynomials in
   it, the bit lengths, the 2-adicity of r - 1 and the generator of Fr^* the
   FFTs use.
   BLS12-381 (draft-irtf-cfrg-pairing-friendly-curves section 4.2.1):
     x = -0xd201000000010000, r = x^4 - x^2 + 1, p = (x - 1)^2 r / 3 + x,
     Fr generator 7 (bellman, blst).
   BN254 (Barreto-Naehrig, eprint 2005/133; EIP-196/197):
     x = 4965661367192848881, p = 36x^4 + 36x^3 + 24x^2 + 6x + 1,
     r = 36x^4 + 36x^3 + 18x^2 + 6x + 1, Fr generator 5 (ffjavascript/snarkjs, arkworks). */
template <class C>
struct published;
template <>
struct published<curves::bls12_381> {
  static mpz_class x() { return mpz_class("-d201000000010000", 16); }
  static mpz_class r() { return x() * x() * x() * x() - x() * x() + 1; }
  static mpz_class p() { return (x() - 1) * (x() - 1) * r() / 3 + x(); }
  static constexpr unsigned fp_bits = 381, fr_bits = 255, fr_two_adicity = 32, fr_generator = 7;
};
template <>
struct published<curves::bn254> {
  static mpz_class x() { return mpz_class("4965661367192848881"); }
  static mpz_class p() {
    const mpz_class v = x();
    return 36 * v * v * v * v + 36 * v * v * v + 24 * v * v + 6 * v + 1;
  }
  static mpz_class r() {
    const mpz_class v = x();
    return 36 * v * v * v * v + 36 * v * v * v + 18 * v * v + 6 * v + 1;
  }
  static constexpr unsigned fp_bits = 254, fr_bits = 254, fr_two_adicity = 28, fr_generator = 5;
};

template <class C>
class CurveFieldConstants : public ::testing::Test {};
TYPED_TEST_SUITE(CurveFieldConstants, curves_under_test, curve_names);

TYPED_TEST(CurveFieldConstants, ModuliFollowFromTheCurveParameter) {
  using S = published<TypeParam>;
  EXPECT_EQ(gmp_field<ff::fr<TypeParam>>::p(), S::r());
  EXPECT_EQ(gmp_field<ff::fp<TypeParam>>::p(), S::p());
  /* the curve type's x is the same parameter */
  mpz_class x_abs;
  const std::uint64_t xa = TypeParam::x_abs;
  mpz_import(x_abs.get_mpz_t(), 1, -1, sizeof xa, 0, 0, &xa);
  EXPECT_EQ(TypeParam::x_negative ? mpz_class(-x_abs) : x_abs, S::x());
}

TYPED_TEST(CurveFieldConstants, BitLengthsAndTwoAdicityAreThePublishedOnes) {
  using S = published<TypeParam>;
  using FpP = typename TypeParam::fp_params;
  using FrP = typename TypeParam::fr_params;
  EXPECT_EQ(FpP::bits, S::fp_bits);
  EXPECT_EQ(FrP::bits, S::fr_bits);
  EXPECT_EQ(FrP::two_adicity, S::fr_two_adicity);
  /* p = 3 mod 4 for both: the Fp2 square root relies on it */
  EXPECT_EQ(FpP::two_adicity, 1u);
  EXPECT_EQ(mpz_class(S::p() % 4), 3);
  EXPECT_EQ(FpP::n_limbs, (S::fp_bits + 63) / 64);
  EXPECT_EQ(FrP::n_limbs, (S::fr_bits + 63) / 64);
}

TYPED_TEST(CurveFieldConstants, FrGeneratorIsThePublishedNonResidue) {
  using F = ff::fr<TypeParam>;
  using G = gmp_field<F>;
  using P = typename TypeParam::fr_params;
  mpz_class g = G::value(F::from_montgomery(P::generator));
  EXPECT_EQ(g, published<TypeParam>::fr_generator);
  EXPECT_EQ(mpz_legendre(g.get_mpz_t(), G::p().get_mpz_t()), -1);
  /* root_of_unity = g^t */
  mpz_class t = (G::p() - 1) >> P::two_adicity;
  EXPECT_EQ(G::value(F::from_montgomery(P::root_of_unity)), powm<F>(g, t));
}

}  // namespace
}  // namespace cuzk::test
