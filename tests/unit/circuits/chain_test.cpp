#include "circuits/chain.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "circuits/registry.hpp"
#include "curves_under_test.hpp"
#include "file_bytes.hpp"
#include "r1cs/r1cs_file.hpp"
#include "r1cs/recording_cs.hpp"
#include "r1cs/wtns_file.hpp"
#include "seed.hpp"

namespace cuzk::circuits {
namespace {

template <class C>
class ChainOn : public ::testing::Test {};
TYPED_TEST_SUITE(ChainOn, test::curves_under_test, test::curve_names);

TYPED_TEST(ChainOn, OutputEqualsTheDirectComputation) {
  using C = TypeParam;
  using fr = ff::fr<C>;
  auto g = cuzk::test::rng(2);
  for (std::uint64_t size : {1u, 2u, 17u, 1000u}) {
    const basic_chain<C> c(size);
    const auto in = c.parse_inputs(c.random_inputs(g()));
    const fr x = dynamic_cast<const typename basic_chain<C>::inputs_t&>(*in).x;
    fr v = x;
    for (std::uint64_t i = 0; i < size; ++i) v = v * v + fr::from_u64(i);
    EXPECT_EQ(c.public_values(*in), std::vector<fr>{v});
    const auto z = generate_witness(c, *in);
    EXPECT_EQ(z[1], v);
    EXPECT_EQ(z[2], x);
  }
}

TEST(Chain, OnBn254AValueBelowBls12381sRButNotBn254sIsRefused) {
  const basic_chain<curves::bn254> c(4);
  // BN254's r itself, below BLS12-381's r
  const nlohmann::json j{{"x", "21888242871839275222246405745257275088548364400416034343698204186575808495617"}};
  EXPECT_THROW(c.parse_inputs(j), circuit_error);
  EXPECT_NO_THROW(basic_chain<curves::bls12_381>(4).parse_inputs(j));
}

TEST(Chain, HasOneConstraintPerStep) {
  EXPECT_EQ(basic_chain<curves::bls12_381>(65536).count(), (r1cs::counts{65536, 2, 65536}));
}

// tests/unit/r1cs/data/chain4.{r1cs,wtns}: circom2 --prime bls12381 on
// tests/interop/circom/chain.circom with N = 4, witness for x = 3.
TEST(Chain, MatchesCircomsConstraintsAndWitnessExactly) {
  const basic_chain<curves::bls12_381> c(4);
  r1cs::basic_recording_cs<curves::bls12_381> rec;
  c.synthesize(rec, nullptr);
  const auto circom = r1cs::read_r1cs(r1cs::fixtures::data_file("chain4.r1cs"));
  EXPECT_EQ(std::move(rec).finish(), circom.m);
  const auto in = c.parse_inputs(nlohmann::json{{"x", "3"}});
  EXPECT_EQ(generate_witness(c, *in), r1cs::read_wtns(r1cs::fixtures::data_file("chain4.wtns")));
}

TEST(Chain, InputsAreValidated) {
  const basic_chain<curves::bls12_381> c(4);
  EXPECT_THROW(c.parse_inputs(nlohmann::json{{"y", "3"}}), circuit_error);
  EXPECT_THROW(c.parse_inputs(nlohmann::json{{"x", "-3"}}), circuit_error);
  EXPECT_THROW(c.parse_inputs(nlohmann::json{{"x", "0x03"}}), circuit_error);
  EXPECT_THROW(c.parse_inputs(nlohmann::json{
                   {"x", "52435875175126190479447740508185965837690552500527637822603658699938581184513"}}),
               circuit_error);
  EXPECT_THROW(c.parse_inputs(nlohmann::json::array()), circuit_error);
  EXPECT_NO_THROW(c.parse_inputs(nlohmann::json{{"x", 3}}));
  EXPECT_THROW(basic_chain<curves::bls12_381>(0), circuit_error);
}

}  // namespace
}  // namespace cuzk::circuits
