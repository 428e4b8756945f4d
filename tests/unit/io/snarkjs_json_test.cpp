#include <gtest/gtest.h>

#include "ec/scalar_mul.hpp"
#include "io/snarkjs_json.hpp"
#include "seed.hpp"
#include "../groth16/random_circuit.hpp"

namespace cuzk::io {
namespace {

groth16::basic_proof<curves::bls12_381> random_proof() {
  auto rng = test::rng(21);
  return {ec::mul(ec::g1_curve::generator(), test::random_fr(rng)).to_affine(),
          ec::mul(ec::g2_curve::generator(), test::random_fr(rng)).to_affine(),
          ec::mul(ec::g1_curve::generator(), test::random_fr(rng)).to_affine()};
}

TEST(SnarkjsJsonTest, ProofRoundTripsInSnarkjsShape) {
  auto p = random_proof();
  auto j = proof_to_json(p);
  EXPECT_EQ(j["protocol"], "groth16");
  EXPECT_EQ(j["curve"], "bls12381");
  EXPECT_EQ(j["pi_a"][2], "1");
  EXPECT_EQ(j["pi_b"][2][0], "1");
  EXPECT_EQ(j["pi_b"][2][1], "0");
  auto back = proof_from_json(j);
  EXPECT_EQ(back.a, p.a);
  EXPECT_EQ(back.b, p.b);
  EXPECT_EQ(back.c, p.c);
}

/* BN254 (snarkjs's bn128): the same shapes with "curve": "bn128", and a
   document of one curve refused by the other's reader, naming both */
groth16::basic_proof<curves::bn254> random_bn254_proof() {
  using C = curves::bn254;
  auto rng = test::rng(22);
  auto k = [&] { return ff::fr<C>::random(rng); };
  return {ec::mul(ec::g1_group<C>::generator(), k()).to_affine(),
          ec::mul(ec::g2_group<C>::generator(), k()).to_affine(),
          ec::mul(ec::g1_group<C>::generator(), k()).to_affine()};
}

TEST(SnarkjsJsonTest, Bn254ProofRoundTripsAndSaysBn128) {
  auto p = random_bn254_proof();
  auto j = proof_to_json(p);
  EXPECT_EQ(j["curve"], "bn128");
  EXPECT_EQ(curve_of(j), curves::curve_id::bn254);
  auto back = proof_from_json<curves::bn254>(j);
  EXPECT_EQ(back.a, p.a);
  EXPECT_EQ(back.b, p.b);
  EXPECT_EQ(back.c, p.c);
  j["pi_a"][0] = "5";
  EXPECT_THROW(proof_from_json<curves::bn254>(j), json_invalid);
}

TEST(SnarkjsJsonTest, ADocumentOfTheOtherCurveIsRefusedNamingBoth) {
  try {
    proof_from_json(proof_to_json(random_bn254_proof()));
    FAIL() << "a bn128 proof read as BLS12-381";
  } catch (const json_malformed& e) {
    EXPECT_STREQ(e.what(), "proof: curve is BN254 (\"bn128\"), not BLS12-381 (\"bls12381\")");
  }
  EXPECT_THROW(proof_from_json<curves::bn254>(proof_to_json(random_proof())), json_malformed);
  auto bad = proof_to_json(random_proof());
  bad["curve"] = "secp256k1";
  EXPECT_THROW(proof_from_json(bad), json_malformed);
  EXPECT_FALSE(curve_of(bad));
}

TEST(SnarkjsJsonTest, PointOffTheCurveIsInvalidNotMalformed) {
  auto j = proof_to_json(random_proof());
  j["pi_a"][0] = "5";
  EXPECT_THROW(proof_from_json(j), json_invalid);
}

TEST(SnarkjsJsonTest, MissingFieldOrNonDecimalIsMalformed) {
  auto j = proof_to_json(random_proof());
  auto k = j;
  k.erase("pi_c");
  EXPECT_THROW(proof_from_json(k), json_malformed);
  k = j;
  k["pi_a"][0] = "0x12";
  EXPECT_THROW(proof_from_json(k), json_malformed);
  k = j;
  k["pi_b"] = 7;
  EXPECT_THROW(proof_from_json(k), json_malformed);
}

TEST(SnarkjsJsonTest, PublicSignalsRoundTripAndOutOfFieldIsInvalid) {
  auto rng = test::rng(22);
  std::vector<groth16::fr_t> s = {test::random_fr(rng), groth16::fr_t::zero(), test::random_fr(rng)};
  EXPECT_EQ(public_from_json(public_to_json(s)), s);
  json bad = json::array({"52435875175126190479447740508185965837690552500527637822603658699938581184513"});
  EXPECT_THROW(public_from_json(bad), json_invalid);
  EXPECT_THROW(public_from_json(json::array({1})), json_malformed);
}

TEST(SnarkjsJsonTest, VerificationKeyRoundTrips) {
  auto rng = test::rng(23);
  groth16::basic_verifying_key<curves::bls12_381> vk;
  vk.alpha1 = ec::mul(ec::g1_curve::generator(), test::random_fr(rng)).to_affine();
  vk.beta2 = ec::mul(ec::g2_curve::generator(), test::random_fr(rng)).to_affine();
  vk.gamma2 = ec::g2_curve::generator();
  vk.delta2 = ec::mul(ec::g2_curve::generator(), test::random_fr(rng)).to_affine();
  vk.ic = {ec::g1_curve::generator(), {}};
  auto j = vk_to_json(vk);
  EXPECT_EQ(j["nPublic"], 1);
  EXPECT_EQ(j["IC"][1], json::array({"0", "1", "0"}));
  EXPECT_EQ(j["vk_alphabeta_12"].size(), 2u);
  auto back = vk_from_json(j);
  EXPECT_EQ(back.alpha1, vk.alpha1);
  EXPECT_EQ(back.delta2, vk.delta2);
  EXPECT_EQ(back.ic, vk.ic);
}

}  // namespace
}  // namespace cuzk::io
