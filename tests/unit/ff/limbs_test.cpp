// The limb arithmetic under the fields against GMP, at the widths of both
// Fr and BN254's Fp (4), BLS12-381's Fp (6) and the Fp^2-sized exponents
// (BN254 8, BLS12-381 12), including safegcd inversion modulo random odd
// moduli of every size, not only the four primes.
#include "gmp_oracle.hpp"

namespace cuzk::test {
namespace {

namespace limbs = ff::limbs;

template <class W>
class Limbs : public ::testing::Test {};
template <std::size_t N>
using width = std::integral_constant<std::size_t, N>;
using widths = ::testing::Types<width<4>, width<6>, width<8>, width<12>>;
struct width_names {
  template <class W>
  static std::string GetName(int) {
    return std::to_string(W::value * 64) + "bit";
  }
};
TYPED_TEST_SUITE(Limbs, widths, width_names);

/* uniform below 2^bits */
template <std::size_t N>
limbs::big<N> random_big(std::mt19937_64& g, unsigned bits = 64 * N) {
  limbs::big<N> r{};
  for (std::size_t i = 0; i < N; ++i) {
    if (64 * i >= bits) break;
    r[i] = g();
    if (64 * i + 64 > bits) r[i] &= (std::uint64_t(1) << (bits - 64 * i)) - 1;
  }
  return r;
}

TYPED_TEST(Limbs, CarryChainsComparisonsAndShiftsAgreeWithGmp) {
  constexpr std::size_t N = TypeParam::value;
  auto g = test_rng();
  const mpz_class top = pow2(64 * N);
  for (int i = 0; i < kRandomCases; ++i) {
    auto a = random_big<N>(g, 1 + g() % (64 * N)), b = random_big<N>(g, 1 + g() % (64 * N));
    if (i % 5 == 0) b = a;
    mpz_class x = to_mpz(a), y = to_mpz(b);
    limbs::big<N> r;
    std::uint64_t carry = limbs::add(r, a, b);
    ASSERT_EQ(to_mpz(r) + carry * top, x + y) << hex(x) << " + " << hex(y);
    std::uint64_t borrow = limbs::sub(r, a, b);
    ASSERT_EQ(to_mpz(r) - borrow * top, x - y) << hex(x) << " - " << hex(y);
    ASSERT_EQ(limbs::less(a, b), x < y) << hex(x) << " < " << hex(y);
    ASSERT_EQ(limbs::is_zero(a), x == 0);
    ASSERT_EQ(limbs::bit_length(a), x == 0 ? 0 : mpz_sizeinbase(x.get_mpz_t(), 2)) << hex(x);
    unsigned k = g() % (64 * N);
    ASSERT_EQ(limbs::bit(a, k), mpz_tstbit(x.get_mpz_t(), k) != 0) << hex(x) << " bit " << k;
    std::uint64_t in = g() & 1;
    r = a;
    limbs::shr1(r, in);
    ASSERT_EQ(to_mpz(r), (x >> 1) + in * (top >> 1)) << hex(x);
  }
}

TYPED_TEST(Limbs, InverseModuloRandomOddModuliAgreesWithGmp) {
  constexpr std::size_t N = TypeParam::value;
  auto g = test_rng();
  int checked = 0;
  for (int i = 0; checked < kRandomCases; ++i) {
    unsigned bits = i % 4 ? 64 * N - g() % 8 : 2 + g() % (64 * N - 1);
    auto m = random_big<N>(g, bits);
    m[0] |= 1;
    mpz_class mz = to_mpz(m);
    if (mz < 3) continue;
    auto x = random_big<N>(g, bits);
    if (i % 16 == 1) {
      x = m;
      x[0] -= 1;  // m - 1
    }
    if (i % 16 == 2) x = {1};
    mpz_class xz = to_mpz(x) % mz, want;
    if (!mpz_invert(want.get_mpz_t(), xz.get_mpz_t(), mz.get_mpz_t())) continue;
    auto got = limbs::inverse_mod(to_limbs<N>(xz), m);
    ASSERT_EQ(to_mpz(got), want) << hex(xz) << "^-1 mod " << hex(mz);
    ++checked;
  }
}

TEST(LimbsInverse, ExtremeModuliAgreeWithGmp) {
  auto g = test_rng();
  std::vector<mpz_class> moduli = {
      3, 5, pow2(64) - 1, pow2(64) + 1, pow2(127) - 1, pow2(384) - 1, pow2(383) + 1, pow2(381) - 2 * pow2(200) + 1};
  for (const auto& mz : moduli) {
    auto m = to_limbs<6>(mz);
    std::vector<mpz_class> xs = {1, 2, mz - 1, mz - 2, mz / 2, (mz + 1) / 2};
    for (int i = 0; i < 200; ++i) xs.push_back(to_mpz(random_big<6>(g)) % mz);
    for (const auto& xz : xs) {
      mpz_class want;
      if (xz == 0 || !mpz_invert(want.get_mpz_t(), xz.get_mpz_t(), mz.get_mpz_t())) continue;
      ASSERT_EQ(to_mpz(limbs::inverse_mod(to_limbs<6>(xz), m)), want) << hex(xz) << "^-1 mod " << hex(mz);
    }
  }
}

TEST(LimbsInverse, InverseModuloTwoTo64IsAnInverse) {
  auto g = test_rng();
  for (int i = 0; i < kRandomCases; ++i) {
    std::uint64_t m = g() | 1;
    std::uint64_t inv = limbs::inverse_mod_2_64(m);
    ASSERT_EQ(m * inv, 1u) << m;
  }
}

}  // namespace
}  // namespace cuzk::test
