#include "circuits/poseidon_merkle.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "circuits/json_inputs.hpp"
#include "circuits/poseidon.hpp"
#include "curves_under_test.hpp"
#include "r1cs/checking_cs.hpp"
#include "seed.hpp"
#include "tampering_cs.hpp"

namespace cuzk::circuits {
namespace {

template <class C>
class PoseidonMerkleOn : public ::testing::Test {};
TYPED_TEST_SUITE(PoseidonMerkleOn, test::curves_under_test, test::curve_names);

TYPED_TEST(PoseidonMerkleOn, RootIsTheNativeFoldOfThePath) {
  using C = TypeParam;
  using fr = ff::fr<C>;
  const fr leaf = fr::from_u64(7);
  const std::vector<fr> path = {fr::from_u64(1), fr::from_u64(2), fr::from_u64(3)};
  // index 5 = 0b101: right child at levels 0 and 2
  const fr expected = poseidon_hash2<C>(path[2], poseidon_hash2<C>(poseidon_hash2<C>(path[0], leaf), path[1]));
  EXPECT_EQ(basic_poseidon_merkle<C>::root(leaf, 5, path), expected);
}

TYPED_TEST(PoseidonMerkleOn, EveryIndexOfASmallTreeProves) {
  using C = TypeParam;
  const basic_poseidon_merkle<C> c(3);
  for (std::uint64_t index = 0; index < 8; ++index) {
    auto j = c.random_inputs(cuzk::test::seed() + index);
    j["index"] = index;
    const auto in = c.parse_inputs(j);
    r1cs::basic_checking_cs<C> cs;
    c.synthesize(cs, in.get());
    ASSERT_TRUE(cs.satisfied()) << index << ": " << cs.first_failure()->name;
    EXPECT_EQ(cs.inputs()[1], c.public_values(*in)[0]);
  }
}

TYPED_TEST(PoseidonMerkleOn, ConstraintCountIs245PerLevelPlusTwo) {
  for (unsigned d : {1u, 4u, 20u, 32u})
    EXPECT_EQ(basic_poseidon_merkle<TypeParam>(d).count().constraints, 245u * d + 2) << d;
}

TEST(PoseidonMerkle, ANonBooleanIndexBitIsCaughtByItsBooleanityConstraint) {
  const basic_poseidon_merkle<curves::bls12_381> c(4);
  const auto in = c.parse_inputs(c.random_inputs(cuzk::test::seed()));
  r1cs::basic_checking_cs<curves::bls12_381> checker;
  r1cs::fixtures::tampering_cs bad(checker, 2, fr_t::from_u64(2));  // aux: leaf, index, bit 0, ...
  c.synthesize(bad, in.get());
  ASSERT_FALSE(checker.satisfied());
  EXPECT_EQ(checker.first_failure()->name, "poseidon-merkle/index bit[0]/b (1 - b) = 0");
  EXPECT_EQ(checker.first_failure()->index, 0u);
}

TEST(PoseidonMerkle, InputsAreValidated) {
  const basic_poseidon_merkle<curves::bls12_381> c(3);
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
  EXPECT_THROW(basic_poseidon_merkle<curves::bls12_381>(0), circuit_error);
  EXPECT_THROW(basic_poseidon_merkle<curves::bls12_381>(65), circuit_error);
}

}  // namespace
}  // namespace cuzk::circuits
