#include <gtest/gtest.h>

#include "ec/config.hpp"
#include "groth16/evaluations.hpp"
#include "groth16/native.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "r1cs/matrices.hpp"
#include "random_circuit.hpp"
#include "seed.hpp"

namespace cuzk::groth16 {
namespace {


proof prove_instance(const proving_key& pk, const test::random_instance& inst, std::optional<blinding> rs = {}) {
  prover_buffers buf(pk);
  buf.z = inst.z;
  const auto n = inst.m.n_constraints();
  r1cs::evaluate(inst.m, inst.z, std::span(buf.a).first(n), std::span(buf.b).first(n), std::span(buf.c).first(n));
  fill_public_rows(n, pk.n_public, buf.z, buf.a, buf.b, buf.c);
  return prove(pk, buf.z, buf.a, buf.b, buf.c, rs);
}

std::vector<fr_t> public_of(const test::random_instance& inst) {
  return {inst.z.begin() + 1, inst.z.begin() + 1 + inst.m.n_public};
}

class ProverTest : public ::testing::TestWithParam<h_form> {};

TEST_P(ProverTest, ProofOfARandomCircuitVerifies) {
  auto rng = test::rng(1);
  auto inst = test::make_random_instance(rng, 50, 3, 4);
  auto pk = setup(inst.m, toxic_waste::random(), GetParam());
  EXPECT_EQ(pk.domain_size, 64u);
  auto p = prove_instance(pk, inst);
  EXPECT_TRUE(verify(pk.vk(), public_of(inst), p));
}

TEST_P(ProverTest, WrongPublicSignalIsRejected) {
  auto rng = test::rng(2);
  auto inst = test::make_random_instance(rng, 20, 2, 2);
  auto pk = setup(inst.m, toxic_waste::random(), GetParam());
  auto p = prove_instance(pk, inst);
  auto pub = public_of(inst);
  pub[1] += fr_t::one();
  EXPECT_FALSE(verify(pk.vk(), pub, p));
  pub.pop_back();
  EXPECT_FALSE(verify(pk.vk(), pub, p));
}

TEST_P(ProverTest, TamperedProofIsRejected) {
  auto rng = test::rng(3);
  auto inst = test::make_random_instance(rng, 20, 1, 2);
  auto pk = setup(inst.m, toxic_waste::random(), GetParam());
  auto p = prove_instance(pk, inst);
  auto bad = p;
  bad.c = (ec::g1_jacobian_t::from_affine(p.c) + ec::g1_curve::generator()).to_affine();
  EXPECT_FALSE(verify(pk.vk(), public_of(inst), bad));
  bad = p;
  bad.a = -p.a;
  EXPECT_FALSE(verify(pk.vk(), public_of(inst), bad));
}

TEST_P(ProverTest, DeterministicModeGivesTheSameProofTwiceAndRandomModeDoesNot) {
  auto rng = test::rng(4);
  auto inst = test::make_random_instance(rng, 30, 2, 3);
  auto pk = setup(inst.m, toxic_waste::from_seed("det"), GetParam());
  blinding rs{test::random_fr(rng), test::random_fr(rng)};
  auto p1 = prove_instance(pk, inst, rs), p2 = prove_instance(pk, inst, rs);
  EXPECT_EQ(p1.a, p2.a);
  EXPECT_EQ(p1.b, p2.b);
  EXPECT_EQ(p1.c, p2.c);
  auto p3 = prove_instance(pk, inst);
  EXPECT_FALSE(p3.a == p1.a);
  EXPECT_TRUE(verify(pk.vk(), public_of(inst), p3));
}

TEST_P(ProverTest, UnsatisfiedWitnessDoesNotYieldAValidProof) {
  auto rng = test::rng(5);
  auto inst = test::make_random_instance(rng, 20, 1, 2);
  auto pk = setup(inst.m, toxic_waste::random(), GetParam());
  auto z = inst;
  z.z.back() += fr_t::one();  // a product wire no longer equals its product
  ASSERT_TRUE(r1cs::first_unsatisfied(z.m, z.z).has_value());
  if (GetParam() == h_form::coefficient) {
    EXPECT_THROW(prove_instance(pk, z), std::invalid_argument);
  } else {
    EXPECT_FALSE(verify(pk.vk(), public_of(z), prove_instance(pk, z)));
  }
}

INSTANTIATE_TEST_SUITE_P(BothHForms, ProverTest, ::testing::Values(h_form::odd_coset, h_form::coefficient),
                         [](const auto& info) { return info.param == h_form::odd_coset ? "OddCoset" : "Coefficient"; });

TEST(SetupTest, SeedGivesTheSameKey) {
  auto rng = test::rng(6);
  auto inst = test::make_random_instance(rng, 10, 1, 2);
  auto k1 = setup(inst.m, toxic_waste::from_seed("s")), k2 = setup(inst.m, toxic_waste::from_seed("s"));
  auto k3 = setup(inst.m, toxic_waste::from_seed("t"));
  EXPECT_EQ(k1.h_query, k2.h_query);
  EXPECT_EQ(k1.a, k2.a);
  EXPECT_FALSE(k1.delta1 == k3.delta1);
}

TEST(SetupTest, DomainHasRoomForConstraintsAndPublicRows) {
  EXPECT_EQ(domain_size_for(1, 0), 2u);
  EXPECT_EQ(domain_size_for(3, 0), 4u);
  EXPECT_EQ(domain_size_for(4, 0), 8u);
  EXPECT_EQ(domain_size_for(62, 1), 64u);
  EXPECT_EQ(domain_size_for(62, 2), 128u);
}

TEST(ProverSizesTest, WrongWitnessLengthIsAClearError) {
  auto rng = test::rng(7);
  auto inst = test::make_random_instance(rng, 10, 1, 1);
  auto pk = setup(inst.m, toxic_waste::random());
  prover_buffers buf(pk);
  buf.z.pop_back();
  try {
    prove(pk, buf.z, buf.a, buf.b, buf.c);
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("witness has"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace cuzk::groth16
