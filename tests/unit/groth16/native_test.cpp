#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "circuits/chain.hpp"
#include "groth16/native.hpp"
#include "groth16/verifier.hpp"
#include "seed.hpp"

namespace cuzk::groth16 {
namespace {

TEST(NativeTest, ChainCircuitProofVerifiesWithItsOutput) {
  circuits::chain c(100);
  auto pk = setup_circuit(c, toxic_waste::random());
  auto in = c.parse_inputs(c.random_inputs(test::seed()));
  prover_buffers buf(pk);
  synthesize_into(pk, c, *in, buf);
  std::vector<fr_t> pub(buf.z.begin() + 1, buf.z.begin() + 1 + pk.n_public);
  EXPECT_EQ(pub, c.public_values(*in));
  auto p = prove(pk, buf.z, buf.a, buf.b, buf.c);
  EXPECT_TRUE(verify(pk.vk(), pub, p));
}

TEST(NativeTest, KeyOfAnotherCircuitIsRefused) {
  circuits::chain small(10), big(40);
  auto pk = setup_circuit(small, toxic_waste::random());
  auto in = big.parse_inputs(big.random_inputs(1));
  prover_buffers buf(pk);
  EXPECT_THROW(synthesize_into(pk, big, *in, buf), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::groth16
