// Canonical limbs, little- and big-endian bytes and decimal strings of Fp and
// Fr of BLS12-381 and BN254 against GMP's import/export and get_str.
#include <algorithm>
#include <vector>

#include "gmp_oracle.hpp"

namespace cuzk::test {
namespace {

template <class F>
class FieldEncoding : public ::testing::Test {};
TYPED_TEST_SUITE(FieldEncoding, prime_fields, field_names);

/* z as exactly n bytes, least significant first; z < 2^(8n) */
std::vector<std::uint8_t> bytes_le(const mpz_class& z, std::size_t n) {
  std::vector<std::uint8_t> b(n, 0);
  mpz_export(b.data(), nullptr, -1, 1, 0, 0, z.get_mpz_t());
  return b;
}
std::vector<std::uint8_t> bytes_be(const mpz_class& z, std::size_t n) {
  auto b = bytes_le(z, n);
  std::reverse(b.begin(), b.end());
  return b;
}

template <class F>
std::vector<mpz_class> random_and_edge_values() {
  using G = gmp_field<F>;
  auto g = test_rng();
  auto v = G::edge_values();
  for (int i = 0; i < kRandomCases; ++i) v.push_back(G::random(g));
  return v;
}

/* p, p + 1, p + 2^64, 2^bits, 2^(64N) - 1: every one too large */
template <class F>
std::vector<mpz_class> values_at_or_above_modulus() {
  using G = gmp_field<F>;
  return {G::p(), G::p() + 1, G::p() + pow2(64), pow2(F::bits), pow2(64 * F::n_limbs) - 1};
}

TYPED_TEST(FieldEncoding, MontgomeryFormIsValueTimesR) {
  using G = gmp_field<TypeParam>;
  for (const auto& x : random_and_edge_values<TypeParam>()) {
    auto a = TypeParam::from_canonical(to_limbs<TypeParam::n_limbs>(x));
    ASSERT_TRUE(a.has_value()) << "x = " << hex(x);
    ASSERT_EQ(to_mpz(a->l), G::reduce(x * G::r())) << "x = " << hex(x);
  }
}

TYPED_TEST(FieldEncoding, CanonicalLimbsRoundTrip) {
  using G = gmp_field<TypeParam>;
  for (const auto& x : random_and_edge_values<TypeParam>()) {
    auto l = to_limbs<TypeParam::n_limbs>(x);
    ASSERT_EQ(G::element(x).to_canonical(), l) << "x = " << hex(x);
    ASSERT_EQ(TypeParam::from_canonical(l).value().to_canonical(), l) << "x = " << hex(x);
    ASSERT_TRUE(G::agrees(TypeParam::from_canonical_unchecked(l), x)) << "x = " << hex(x);
  }
}

TYPED_TEST(FieldEncoding, CanonicalLimbsAtOrAboveModulusAreRejected) {
  for (const auto& x : values_at_or_above_modulus<TypeParam>())
    EXPECT_FALSE(TypeParam::from_canonical(to_limbs<TypeParam::n_limbs>(x)).has_value()) << "x = " << hex(x);
}

TYPED_TEST(FieldEncoding, LittleEndianBytesAgreeWithGmpExport) {
  using G = gmp_field<TypeParam>;
  constexpr std::size_t n = TypeParam::n_bytes;
  for (const auto& x : random_and_edge_values<TypeParam>()) {
    auto want = bytes_le(x, n);
    auto got = G::element(x).to_bytes_le();
    ASSERT_TRUE(std::equal(got.begin(), got.end(), want.begin())) << "x = " << hex(x);
    ASSERT_TRUE(G::agrees(TypeParam::from_bytes_le(want).value(), x)) << "x = " << hex(x);
  }
}

TYPED_TEST(FieldEncoding, BigEndianBytesAgreeWithGmpExport) {
  using G = gmp_field<TypeParam>;
  constexpr std::size_t n = TypeParam::n_bytes;
  for (const auto& x : random_and_edge_values<TypeParam>()) {
    auto want = bytes_be(x, n);
    auto got = G::element(x).to_bytes_be();
    ASSERT_TRUE(std::equal(got.begin(), got.end(), want.begin())) << "x = " << hex(x);
    ASSERT_TRUE(G::agrees(TypeParam::from_bytes_be(want).value(), x)) << "x = " << hex(x);
  }
}

TYPED_TEST(FieldEncoding, BytesAtOrAboveModulusAreRejected) {
  constexpr std::size_t n = TypeParam::n_bytes;
  for (const auto& x : values_at_or_above_modulus<TypeParam>()) {
    EXPECT_FALSE(TypeParam::from_bytes_le(bytes_le(x, n)).has_value()) << "x = " << hex(x);
    EXPECT_FALSE(TypeParam::from_bytes_be(bytes_be(x, n)).has_value()) << "x = " << hex(x);
  }
}

TYPED_TEST(FieldEncoding, BytesOfTheWrongLengthAreRejected) {
  constexpr std::size_t n = TypeParam::n_bytes;
  for (std::size_t len : {std::size_t(0), std::size_t(1), n - 1, n + 1, 2 * n, std::size_t(32), std::size_t(48)}) {
    if (len == n) continue;
    std::vector<std::uint8_t> b(len, 0);  // zero, a valid value at the right length
    if (len) b[0] = 1;
    EXPECT_FALSE(TypeParam::from_bytes_le(b).has_value()) << "length " << len;
    EXPECT_FALSE(TypeParam::from_bytes_be(b).has_value()) << "length " << len;
  }
}

TYPED_TEST(FieldEncoding, DecimalStringsAgreeWithGmp) {
  using G = gmp_field<TypeParam>;
  for (const auto& x : random_and_edge_values<TypeParam>()) {
    std::string want = x.get_str(10);
    ASSERT_EQ(G::element(x).to_decimal(), want);
    auto parsed = TypeParam::from_decimal(want);
    ASSERT_TRUE(parsed.has_value()) << want;
    ASSERT_TRUE(G::agrees(*parsed, x)) << want;
  }
}

TYPED_TEST(FieldEncoding, DecimalWithLeadingZerosParses) {
  using G = gmp_field<TypeParam>;
  EXPECT_TRUE(G::agrees(TypeParam::from_decimal("0").value(), 0));
  EXPECT_TRUE(G::agrees(TypeParam::from_decimal("000").value(), 0));
  EXPECT_TRUE(G::agrees(TypeParam::from_decimal("0042").value(), 42));
  EXPECT_TRUE(G::agrees(TypeParam::from_decimal("0" + mpz_class(G::p() - 1).get_str(10)).value(), G::p() - 1));
}

TYPED_TEST(FieldEncoding, DecimalAtOrAboveModulusIsRejected) {
  using G = gmp_field<TypeParam>;
  for (const auto& x : values_at_or_above_modulus<TypeParam>())
    EXPECT_FALSE(TypeParam::from_decimal(x.get_str(10)).has_value()) << x.get_str(10);
  /* past 2^(64N): the parser's own overflow path */
  const mpz_class past = pow2(64 * TypeParam::n_limbs);
  for (const mpz_class& x : {past, mpz_class(past * 10 + 7), mpz_class(G::p() * G::p())})
    EXPECT_FALSE(TypeParam::from_decimal(x.get_str(10)).has_value()) << x.get_str(10);
  EXPECT_FALSE(TypeParam::from_decimal(std::string(150, '9')).has_value());
}

TYPED_TEST(FieldEncoding, DecimalWithNonDigitsOrEmptyIsRejected) {
  for (const char* s : {"", "-1", "+1", " 1", "1 ", "1\n", "0x10", "1.0", "1e3", "12a", "a", "--", "1_000",
                        "\xef\xbc\x91" /* U+FF11 fullwidth 1 */, "/", ":"})
    EXPECT_FALSE(TypeParam::from_decimal(s).has_value()) << "\"" << s << "\"";
  EXPECT_FALSE(TypeParam::from_decimal(std::string_view("1\0"
                                                        "2",
                                                        3))
                   .has_value());
}

}  // namespace
}  // namespace cuzk::test
