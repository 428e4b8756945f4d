#include "circuits/sha256.hpp"

#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "circuits/json_inputs.hpp"
#include "circuits/sha256_gadget.hpp"
#include "circuits/sha256_preimage.hpp"
#include "curves_under_test.hpp"
#include "r1cs/checking_cs.hpp"
#include "r1cs/counting_cs.hpp"
#include "seed.hpp"

#ifdef CUZK_HAVE_OPENSSL
#include <openssl/sha.h>
#endif

namespace cuzk::circuits {
namespace {

std::string hash_hex(std::string_view msg) {
  const auto d = sha256({reinterpret_cast<const std::uint8_t*>(msg.data()), msg.size()});
  return bytes_to_hex(d);
}

// FIPS 180-4 examples (NIST CSRC "Examples with Intermediate Values", SHA-256)
TEST(Sha256, NativeMatchesKnownVectors) {
  EXPECT_EQ(hash_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(hash_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(hash_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(hash_hex(std::string(1000000, 'a')), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

#ifdef CUZK_HAVE_OPENSSL
TEST(Sha256, NativeMatchesOpenSSLOnEveryLengthUpTo300) {
  auto g = cuzk::test::rng(9);
  for (std::size_t len = 0; len <= 300; ++len) {
    std::vector<std::uint8_t> m(len);
    for (auto& b : m) b = static_cast<std::uint8_t>(g());
    std::array<std::uint8_t, 32> expected;
    SHA256(m.data(), m.size(), expected.data());
    EXPECT_EQ(sha256(m), expected) << len;
  }
}
#endif

template <class C>
class Sha256On : public ::testing::Test {};
TYPED_TEST_SUITE(Sha256On, test::curves_under_test, test::curve_names);

TYPED_TEST(Sha256On, CircuitDigestEqualsNative) {
  using C = TypeParam;
  for (std::uint64_t len : {0u, 1u, 55u, 56u, 64u, 119u, 200u}) {
    const basic_sha256_preimage<C> c(len);
    const auto j = c.random_inputs(cuzk::test::seed() + len);
    const auto in = c.parse_inputs(j);
    r1cs::basic_checking_cs<C> cs;
    c.synthesize(cs, in.get());
    ASSERT_TRUE(cs.satisfied()) << len << ": " << cs.first_failure()->name;
    const auto preimage = hex_to_bytes(j["preimage_hex"], "preimage");
    const auto packed = basic_sha256_preimage<C>::pack_digest(sha256(preimage));
    ASSERT_EQ(cs.inputs().size(), 3u);
    EXPECT_EQ(cs.inputs()[1], packed[0]) << len;
    EXPECT_EQ(cs.inputs()[2], packed[1]) << len;
  }
}

TEST(Sha256, DigestPacksIntoTwoBigEndianHalves) {
  std::array<std::uint8_t, 32> d{};
  d[15] = 1;     // hi = 1
  d[16] = 0x80;  // lo = 2^127
  const auto p = basic_sha256_preimage<curves::bls12_381>::pack_digest(d);
  EXPECT_EQ(p[0], fr_t::one());
  EXPECT_EQ(p[1], fr_t::from_u64(1ull << 63) * fr_t::from_u64(1ull << 63) * fr_t::from_u64(2));
}

TYPED_TEST(Sha256On, GadgetCompressionEqualsNativeOnWitnessWords) {
  using C = TypeParam;
  auto g = cuzk::test::rng(12);
  std::array<std::uint32_t, 8> state;
  std::array<std::uint32_t, 16> block;
  for (auto& w : state) w = static_cast<std::uint32_t>(g());
  for (auto& w : block) w = static_cast<std::uint32_t>(g());
  r1cs::basic_checking_cs<C> cs;
  std::array<basic_word32<C>, 8> s;
  std::array<basic_word32<C>, 16> b;
  for (int i = 0; i < 8; ++i) s[i] = basic_word32<C>::alloc(cs, state[i]);
  for (int i = 0; i < 16; ++i) b[i] = basic_word32<C>::alloc(cs, block[i]);
  const auto out = sha256_compress(cs, s, b);
  sha256_compress(state, block);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(out[i].value(), state[i]);
  EXPECT_TRUE(cs.satisfied());
}

TEST(Sha256, OneBlockOfWitnessBitsCostsAbout27kConstraints) {
  const auto n = basic_sha256_preimage<curves::bls12_381>(55).count();
  EXPECT_GT(n.constraints, 25000u);
  EXPECT_LT(n.constraints, 30000u);
  const auto two = basic_sha256_preimage<curves::bls12_381>(119).count();
  EXPECT_GT(two.constraints, 2 * 25000u);
}

TEST(Sha256, InputsMustHaveTheCircuitsLength) {
  const basic_sha256_preimage<curves::bls12_381> c(3);
  EXPECT_NO_THROW(c.parse_inputs(nlohmann::json{{"preimage_hex", "616263"}}));
  EXPECT_THROW(c.parse_inputs(nlohmann::json{{"preimage_hex", "6162"}}), circuit_error);
  EXPECT_THROW(c.parse_inputs(nlohmann::json{{"preimage_hex", "61626"}}), circuit_error);
  EXPECT_THROW(c.parse_inputs(nlohmann::json{{"preimage_hex", "6162zz"}}), circuit_error);
  EXPECT_THROW(c.parse_inputs(nlohmann::json{{"preimage", "616263"}}), circuit_error);
}

TEST(Sha256, ASeedNamesThePreimageThatInputsWithThatSeedHold) {
  const basic_sha256_preimage<curves::bls12_381> c(3000);  // 6 KiB of hex: more than a service job's inputs may hold
  const std::uint64_t seed = cuzk::test::seed();
  const auto named = c.parse_inputs(nlohmann::json{{"preimage_seed", std::to_string(seed)}});
  const auto given = c.parse_inputs(c.random_inputs(seed));
  EXPECT_EQ(c.public_values(*named), c.public_values(*given));
  EXPECT_NE(c.public_values(*named), c.public_values(*c.parse_inputs(nlohmann::json{{"preimage_seed", seed + 1}})));
  EXPECT_THROW(c.parse_inputs(nlohmann::json{{"preimage_seed", "-1"}}), circuit_error);
  EXPECT_THROW(c.parse_inputs(nlohmann::json{{"preimage_seed", 1}, {"preimage_hex", "00"}}), circuit_error);
}

// bench/e2e/partition_bench.sh sizes sha256:blocks=N from these (N = 4984: the largest with domain 2^27)
TEST(Sha256, BlocksCountLinearly) {
  for (std::uint64_t n : {1u, 2u, 3u, 7u}) {
    const auto k = basic_sha256_preimage<curves::bls12_381>(64 * n - 9).count();
    EXPECT_EQ(k.constraints, 26928 * n - 676) << n;
    EXPECT_EQ(k.inputs + k.aux, 26744 * n - 675) << n;
  }
}

}  // namespace
}  // namespace cuzk::circuits
