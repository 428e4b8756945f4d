// Curve ids, names, and the primes in files that say which curve they are.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>

#include "curves/primes.hpp"

namespace cuzk::curves {
namespace {

template <std::size_t N>
std::array<std::uint8_t, 8 * N> le(const std::array<std::uint64_t, N>& l) {
  std::array<std::uint8_t, 8 * N> b{};
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = std::uint8_t(l[i / 8] >> (8 * (i % 8)));
  return b;
}

TEST(CurveId, NamesParseBackToTheirCurve) {
  for (auto c : {curve_id::bls12_381, curve_id::bn254}) {
    EXPECT_EQ(parse_curve(name(c)), c);
    EXPECT_EQ(parse_curve(snarkjs_name(c)), c);
    EXPECT_EQ(parse_curve(display_name(c)), c);
  }
  EXPECT_EQ(parse_curve("alt_bn128"), curve_id::bn254);
  EXPECT_EQ(parse_curve("BN128"), curve_id::bn254);
  EXPECT_FALSE(parse_curve("bls12-377"));
  EXPECT_FALSE(parse_curve(""));
}

TEST(CurveId, StoredNumbersNeverChange) {
  EXPECT_EQ(static_cast<int>(curve_id::bls12_381), 1);
  EXPECT_EQ(static_cast<int>(curve_id::bn254), 2);
  EXPECT_TRUE(valid_curve_id(1));
  EXPECT_TRUE(valid_curve_id(2));
  EXPECT_FALSE(valid_curve_id(0));
  EXPECT_FALSE(valid_curve_id(3));
}

TEST(CurvePrimes, EachPrimeNamesItsCurveAndOnlyThatField) {
  EXPECT_EQ(curve_of_scalar_prime(le(bls12_381::fr_params::modulus)), curve_id::bls12_381);
  EXPECT_EQ(curve_of_scalar_prime(le(bn254::fr_params::modulus)), curve_id::bn254);
  EXPECT_EQ(curve_of_base_prime(le(bls12_381::fp_params::modulus)), curve_id::bls12_381);
  EXPECT_EQ(curve_of_base_prime(le(bn254::fp_params::modulus)), curve_id::bn254);
  /* a base prime is not a scalar prime, and the other way round */
  EXPECT_FALSE(curve_of_scalar_prime(le(bn254::fp_params::modulus)));
  EXPECT_FALSE(curve_of_base_prime(le(bn254::fr_params::modulus)));
  auto r = le(bn254::fr_params::modulus);
  r[0] ^= 1;
  EXPECT_FALSE(curve_of_scalar_prime(r));
  EXPECT_EQ(describe_scalar_prime(r), "a prime of no curve cuzk knows (32 bytes)");
  EXPECT_EQ(describe_scalar_prime(le(bn254::fr_params::modulus)), "BN254's scalar field r (snarkjs and circom: bn128)");
}

}  // namespace
}  // namespace cuzk::curves
