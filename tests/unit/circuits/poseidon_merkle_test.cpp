#include "circuits/poseidon_merkle.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "circuits/json_inputs.hpp"
#include "circuits/poseidon.hpp"
#include "r1cs/checking_cs.hpp"
#include "seed.hpp"
#include "tampering_cs.hpp"

namespace cuzk::circuits {
namespace {

TEST(PoseidonMerkle, RootIsTheNativeFoldOfThePath) {
  const fr_t leaf = fr_t::from_u64(7);
  const std::vector<fr_t> path = {fr_t::from_u64(1), fr_t::from_u64(2), fr_t::from_u64(3)};
  // index 5 = 0b101: right child at levels 0 and 2
  const fr_t expected =
      poseidon_hash2(path[2], poseidon_hash2(poseidon_hash2(path[0], leaf), path[1]));
  EXPECT_EQ(poseidon_merkle::root(leaf, 5, path), expected);
}

TEST(PoseidonMerkle, EveryIndexOfASmallTreeProves) {
  const poseidon_merkle c(3);
  for (std::uint64_t index = 0; index < 8; ++index) {
    auto j = c.random_inputs(cuzk::test::seed() + index);
    j["index"] = index;
    const auto in = c.parse_inputs(j);
    r1cs::checking_cs cs;
    c.synthesize(cs, in.get());
    ASSERT_TRUE(cs.satisfied()) << index << ": " << cs.first_failure()->name;
    EXPECT_EQ(cs.inputs()[1], c.public_values(*in)[0]);
  }
}

TEST(PoseidonMerkle, ConstraintCountIs245PerLevelPlusTwo) {
  for (unsigned d : {1u, 4u, 20u, 32u}) EXPECT_EQ(poseidon_merkle(d).count().constraints, 245u * d + 2) << d;
}

TEST(PoseidonMerkle, ANonBooleanIndexBitIsCaughtByItsBooleanityConstraint) {
  const poseidon_merkle c(4);
  const auto in = c.parse_inputs(c.random_inputs(cuzk::test::seed()));
  r1cs::checking_cs checker;
  r1cs::fixtures::tampering_cs bad(checker, 2, fr_t::from_u64(2));  // aux: leaf, index, bit 0, ...
  c.synthesize(bad, in.get());
  ASSERT_FALSE(checker.satisfied());
  EXPECT_EQ(checker.first_failure()->name, "poseidon-merkle/index bit[0]/b (1 - b) = 0");
  EXPECT_EQ(checker.first_failure()->index, 0u);
}

TEST(PoseidonMerkle, InputsAreValidated) {
  const poseidon_merkle c(3);
  auto j = c.random_inputs(1);
  j["index"] = 8;
  EXPECT_THROW(c.parse_inputs(j), circuit_error);
  j = c.random_inputs(1);
  j["path"].erase(0);
  EXPECT_THROW(c.parse_inputs(j), circuit_error);
  j = c.random_inputs(1);
  j.erase("leaf");
  EXPECT_THROW(c.parse_inputs(j), circuit_error);
  j = c.random_inputs(1);
  j["index"] = "7";
  EXPECT_NO_THROW(c.parse_inputs(j));
  EXPECT_THROW(poseidon_merkle(0), circuit_error);
  EXPECT_THROW(poseidon_merkle(65), circuit_error);
}

}  // namespace
}  // namespace cuzk::circuits
