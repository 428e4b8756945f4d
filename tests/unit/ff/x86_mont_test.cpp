// The x86-64 Montgomery multiplication (MULX/ADX, ff/x86_mont.hpp) against
// the portable C++ path and GMP, on every field (BN254's Fp and Fr, BLS12-381's
// Fr with 4 limbs and Fp with 6): random operands (the seed printed), every pair of edge
// values, and the largest products. Where the CPU lacks ADX the fast path
// is not taken and the test says so; the whole math suite runs again with
// CUZK_FF_PLAIN=1 (ctest plain.*) so the portable path stays tested here.
#include "ff/x86_mont.hpp"

#include "gmp_oracle.hpp"

namespace cuzk::test {
namespace {

template <class F>
class X86Mont : public ::testing::Test {};
using fast_fields = ::testing::Types<ff::fp_t, ff::fr_t, bn254_fp, bn254_fr>;
TYPED_TEST_SUITE(X86Mont, fast_fields, field_names);

TYPED_TEST(X86Mont, AgreesWithThePortablePathAndGmp) {
  using F = TypeParam;
  using G = gmp_field<F>;
  if (!ff::x86::use_adx)
    GTEST_SKIP() << "no ADX/BMI2 on this CPU, or CUZK_FF_PLAIN is set: only the portable path runs";
  auto g = test_rng();
  for (int i = 0; i < 20 * kRandomCases; ++i) {
    mpz_class x = G::random(g), y = G::random(g);
    const F a = G::element(x), b = G::element(y);
    ASSERT_EQ(a * b, F::mul_plain(a, b)) << "x = " << hex(x) << ", y = " << hex(y);
    ASSERT_TRUE(G::agrees(a * b, x * y)) << "x = " << hex(x) << ", y = " << hex(y);
  }
  for (const auto& x : G::edge_values())
    for (const auto& y : G::edge_values()) {
      const F a = G::element(x), b = G::element(y);
      ASSERT_EQ(a * b, F::mul_plain(a, b)) << "x = " << hex(x) << ", y = " << hex(y);
    }
  F a = -F::one();  // (p - 1)^2, and the largest Montgomery words
  for (int i = 0; i < 64; ++i) {
    ASSERT_EQ(a * a, F::mul_plain(a, a));
    a = a * a - F::one();
  }
}

}  // namespace
}  // namespace cuzk::test
