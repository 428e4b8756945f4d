#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "circuits/chain.hpp"
#include "circuits/registry.hpp"
#include "curves_under_test.hpp"
#include "groth16/native.hpp"
#include "groth16/verifier.hpp"
#include "seed.hpp"

namespace cuzk::groth16 {
namespace {

template <class C>
class NativeOn : public ::testing::Test {};
TYPED_TEST_SUITE(NativeOn, test::curves_under_test, test::curve_names);

/* Every native circuit, small: setup, synthesis into the prover's buffers,
   a proof that verifies with the natively computed public signals. */
TYPED_TEST(NativeOn, EveryCircuitsProofVerifiesWithItsPublicSignals) {
  using C = TypeParam;
  for (const char* spec : {"chain:size=100", "poseidon-merkle:depth=2", "sha256:bytes=1"}) {
    const auto c = circuits::make_circuit<C>(spec);
    const auto pk = setup_circuit<C>(*c, basic_toxic_waste<C>::random());
    const auto in = c->parse_inputs(c->random_inputs(test::seed()));
    basic_prover_buffers<C> buf(pk);
    synthesize_into<C>(pk, *c, *in, buf);
    const std::vector<ff::fr<C>> pub(buf.z.begin() + 1, buf.z.begin() + 1 + pk.n_public);
    EXPECT_EQ(pub, c->public_values(*in)) << spec;
    const auto p = prove<C>(pk, buf.z, buf.a, buf.b, buf.c);
    EXPECT_TRUE(verify<C>(pk.vk(), pub, p)) << spec;
    auto wrong = pub;
    wrong[0] += ff::fr<C>::one();
    EXPECT_FALSE(verify<C>(pk.vk(), wrong, p)) << spec;
  }
}

TYPED_TEST(NativeOn, KeyOfAnotherCircuitIsRefused) {
  using C = TypeParam;
  circuits::basic_chain<C> small(10), big(40);
  const auto pk = setup_circuit<C>(small, basic_toxic_waste<C>::random());
  const auto in = big.parse_inputs(big.random_inputs(1));
  basic_prover_buffers<C> buf(pk);
  EXPECT_THROW(synthesize_into<C>(pk, big, *in, buf), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::groth16
