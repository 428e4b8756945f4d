#include "r1cs/wtns_file.hpp"

#include <gtest/gtest.h>

#include "file_bytes.hpp"
#include "random.hpp"
#include "seed.hpp"

namespace cuzk::r1cs {
namespace {

using ff::fr_t;
using fixtures::format_error_of;

fr_t f(std::uint64_t v) { return fr_t::from_u64(v); }

// Offsets in snarkjs/circom .wtns files (header section first, then values).
constexpr std::size_t n8_at = 24, prime_at = 28, count_at = 60, values_size = 68, first_value = 76;

std::string read_error(const std::vector<std::uint8_t>& bytes) {
  return format_error_of([&] { read_wtns(bytes); });
}

TEST(WtnsFile, ReadsCircomWitness) {
  const auto z = read_wtns(fixtures::data_file("chain4.wtns"));
  EXPECT_EQ(z, (std::vector<fr_t>{f(1), f(45239079), f(3), f(9), f(82), f(6726)}));
}

TEST(WtnsFile, ReadsIntoCallerMemory) {
  const auto bytes = fixtures::data_file("chain4.wtns");
  std::vector<fr_t> slot(8);
  EXPECT_EQ(wtns_size(bytes), 6u);
  EXPECT_EQ(read_wtns_into(bytes, slot), 6u);
  EXPECT_EQ(slot[5], f(6726));
  std::vector<fr_t> small(5);
  EXPECT_THROW(read_wtns_into(bytes, small), capacity_error);
}

TEST(WtnsFile, WriteThenReadGivesTheSameValues) {
  auto g = cuzk::test::rng(3);
  std::vector<fr_t> z{fr_t::one()};
  for (int i = 0; i < 100; ++i) z.push_back(f(g()) * f(g()) * f(g()) * f(g()) - f(g()));
  const auto bytes = write_wtns(z);
  EXPECT_EQ(read_wtns(bytes), z);
  // byte-for-byte what circom's witness calculator writes
  const auto circom = fixtures::data_file("chain4.wtns");
  EXPECT_EQ(write_wtns(read_wtns(circom)), circom);
}

TEST(WtnsFile, RejectsWrongMagicVersionAndPrime) {
  auto b = fixtures::data_file("chain4.wtns");
  b[0] = 'r';
  EXPECT_EQ(read_error(b), "wtns: not a .wtns file (bad magic)");
  b = fixtures::data_file("chain4.wtns");
  fixtures::put_u32(b, 4, 1);
  EXPECT_EQ(read_error(b), "wtns: version 1 is not supported (expected 2)");
  b = fixtures::data_file("chain4.wtns");
  const auto bn = fixtures::bn254_prime_le();
  std::copy(bn.begin(), bn.end(), b.begin() + prime_at);
  EXPECT_EQ(read_wtns_shape(memory_source(b, "wtns")).curve, curves::curve_id::bn254);
  EXPECT_EQ(read_error(b),
            "wtns: section 1 (header): the witness is over BN254's scalar field r (snarkjs and circom: bn128), the "
            "key BLS12-381's (bls12381)");
  b = fixtures::data_file("chain4.wtns");
  fixtures::put_u32(b, n8_at, 48);
  EXPECT_NE(read_error(b).find("wtns: section 1 (header): n8 is 48 bytes"), std::string::npos);
}

TEST(WtnsFile, RejectsACountThatDisagreesWithTheValuesSection) {
  auto b = fixtures::data_file("chain4.wtns");
  fixtures::put_u32(b, count_at, 7);
  EXPECT_EQ(read_error(b), "wtns: section 2 (witness): is 192 bytes, but the header declares 7 values of 32 bytes");
  b = fixtures::data_file("chain4.wtns");
  fixtures::put_u64(b, values_size, 224);
  EXPECT_NE(read_error(b).find("wtns: section 2 (witness): declares 224 bytes"), std::string::npos) << read_error(b);
}

TEST(WtnsFile, RejectsValuesNotBelowTheModulus) {
  auto b = fixtures::data_file("chain4.wtns");
  for (std::size_t i = 0; i < 32; ++i)
    b[first_value + 3 * 32 + i] = static_cast<std::uint8_t>(ff::fr_params::modulus[i / 8] >> (8 * (i % 8)));
  EXPECT_EQ(read_error(b), "wtns: section 2 (witness): value 3 is not below the field modulus r");
}

TEST(WtnsFile, RejectsMissingSections) {
  auto b = fixtures::data_file("chain4.wtns");
  fixtures::put_u32(b, 12, 9);
  EXPECT_EQ(read_error(b), "wtns: section 1 (header): missing");
}

TEST(WtnsFile, EveryTruncationIsAFormatError) {
  const auto full = fixtures::data_file("mix3.wtns");
  for (std::size_t n = 0; n < full.size(); ++n) {
    const std::vector<std::uint8_t> cut(full.begin(), full.begin() + n);
    EXPECT_NE(read_error(cut), "") << "cut at " << n;
  }
}

TEST(WtnsFile, RandomCorruptionNeverCrashes) {
  auto g = cuzk::test::rng(11);
  const auto full = fixtures::data_file("mix3.wtns");
  for (int trial = 0; trial < 2000; ++trial) {
    auto b = full;
    b[g() % b.size()] ^= static_cast<std::uint8_t>(1 + g() % 255);
    try {
      read_wtns(b);
    } catch (const format_error&) {
    }
  }
}

TEST(WtnsFile, APrefixReadsOnlyThePublicValues) {
  const auto bytes = fixtures::data_file("mix3.wtns");
  const auto z = read_wtns(bytes);
  const memory_source src(bytes, "wtns");
  EXPECT_EQ(read_wtns_prefix(src, 4), std::vector<ff::fr_t>(z.begin(), z.begin() + 4));
  EXPECT_NE(format_error_of([&] {
              read_wtns_prefix(src, z.size() + 1);
            }).find("holds " + std::to_string(z.size()) + " values, fewer than the"),
            std::string::npos);
}

TEST(WtnsFile, Bn254WitnessRoundTripsAndIsRefusedForTheOtherCurve) {
  using C = curves::bn254;
  auto rng = test::rng(41);
  std::vector<ff::fr<C>> z = {ff::fr<C>::one()};
  for (int i = 0; i < 9; ++i) z.push_back(test::random_fr<C>(rng));
  const auto bytes = write_wtns<C>(z);
  EXPECT_EQ(read_wtns_shape(memory_source(bytes, "wtns")).curve, curves::curve_id::bn254);
  EXPECT_EQ(read_wtns<C>(bytes), z);
  EXPECT_EQ(read_wtns_prefix<C>(memory_source(bytes, "wtns"), 3), std::vector<ff::fr<C>>(z.begin(), z.begin() + 3));
  try {
    read_wtns_prefix<curves::bls12_381>(memory_source(bytes, "wtns"), 3);
    FAIL() << "a BN254 witness was read as BLS12-381's";
  } catch (const format_error& e) {
    EXPECT_NE(std::string(e.what()).find("the witness is over BN254's"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace cuzk::r1cs
