#include <gtest/gtest.h>

#include "ec/config.hpp"
#include "groth16/evaluations.hpp"
#include "groth16/native.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "r1cs/matrices.hpp"
#include "curves_under_test.hpp"
#include "random_circuit.hpp"
#include "seed.hpp"

namespace cuzk::groth16 {
namespace {

template <class C>
basic_proof<C> prove_instance(const basic_proving_key<C>& pk, const test::random_instance<C>& inst,
                              std::type_identity_t<std::optional<basic_blinding<C>>> rs = {}) {
  std::vector<ff::fr<C>> a(pk.domain_size), b(pk.domain_size), c(pk.domain_size), z = inst.z;
  const auto n = inst.m.n_constraints();
  r1cs::evaluate<C>(inst.m, z, std::span(a).first(n), std::span(b).first(n), std::span(c).first(n));
  fill_public_rows<C>(n, pk.n_public, z, a, b, c);
  return prove(pk, z, a, b, c, rs);
}

template <class C>
std::vector<ff::fr<C>> public_of(const test::random_instance<C>& inst) {
  return {inst.z.begin() + 1, inst.z.begin() + 1 + inst.m.n_public};
}

/* setup, prove and verify on each curve, in both H forms */
template <class C>
class ProverTest : public ::testing::Test {
 protected:
  using fr = ff::fr<C>;
  using waste = basic_toxic_waste<C>;
  template <class F>
  void for_each_h_form(F&& f) {
    for (const h_form h : {h_form::odd_coset, h_form::coefficient}) {
      SCOPED_TRACE(h == h_form::odd_coset ? "odd coset" : "coefficient");
      f(h);
    }
  }
};
TYPED_TEST_SUITE(ProverTest, test::curves_under_test, test::curve_names);

TYPED_TEST(ProverTest, ProofOfARandomCircuitVerifies) {
  using C = TypeParam;
  this->for_each_h_form([&](h_form h) {
    auto rng = test::rng(1);
    auto inst = test::make_random_instance<C>(rng, 50, 3, 4);
    auto pk = setup(inst.m, basic_toxic_waste<C>::random(), h);
    EXPECT_EQ(pk.domain_size, 64u);
    auto p = prove_instance(pk, inst);
    EXPECT_TRUE(verify<C>(pk.vk(), public_of(inst), p));
  });
}

TYPED_TEST(ProverTest, WrongPublicSignalIsRejected) {
  using C = TypeParam;
  this->for_each_h_form([&](h_form h) {
    auto rng = test::rng(2);
    auto inst = test::make_random_instance<C>(rng, 20, 2, 2);
    auto pk = setup(inst.m, basic_toxic_waste<C>::random(), h);
    auto p = prove_instance(pk, inst);
    auto pub = public_of(inst);
    pub[1] += ff::fr<C>::one();
    EXPECT_FALSE(verify<C>(pk.vk(), pub, p));
    pub.pop_back();
    EXPECT_FALSE(verify<C>(pk.vk(), pub, p));
  });
}

TYPED_TEST(ProverTest, TamperedProofIsRejected) {
  using C = TypeParam;
  this->for_each_h_form([&](h_form h) {
    auto rng = test::rng(3);
    auto inst = test::make_random_instance<C>(rng, 20, 1, 2);
    auto pk = setup(inst.m, basic_toxic_waste<C>::random(), h);
    auto p = prove_instance(pk, inst);
    auto bad = p;
    bad.c = (ec::g1_jacobian<C>::from_affine(p.c) + ec::g1_group<C>::generator()).to_affine();
    EXPECT_FALSE(verify<C>(pk.vk(), public_of(inst), bad));
    bad = p;
    bad.a = -p.a;
    EXPECT_FALSE(verify<C>(pk.vk(), public_of(inst), bad));
  });
}

TYPED_TEST(ProverTest, DeterministicModeGivesTheSameProofTwiceAndRandomModeDoesNot) {
  using C = TypeParam;
  this->for_each_h_form([&](h_form h) {
    auto rng = test::rng(4);
    auto inst = test::make_random_instance<C>(rng, 30, 2, 3);
    auto pk = setup(inst.m, basic_toxic_waste<C>::from_seed("det"), h);
    basic_blinding<C> rs{test::random_fr<C>(rng), test::random_fr<C>(rng)};
    auto p1 = prove_instance(pk, inst, rs), p2 = prove_instance(pk, inst, rs);
    EXPECT_EQ(p1.a, p2.a);
    EXPECT_EQ(p1.b, p2.b);
    EXPECT_EQ(p1.c, p2.c);
    auto p3 = prove_instance(pk, inst);
    EXPECT_FALSE(p3.a == p1.a);
    EXPECT_TRUE(verify<C>(pk.vk(), public_of(inst), p3));
  });
}

TYPED_TEST(ProverTest, ABlindingsBytesGiveItBackAndBytesAboveROrOfAnotherSizeAreRefused) {
  using C = TypeParam;
  auto rng = test::rng(6);
  const basic_blinding<C> rs{test::random_fr<C>(rng), test::random_fr<C>(rng)};
  auto bytes = rs.to_bytes();
  const auto back = basic_blinding<C>::from_bytes(bytes);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->r, rs.r);
  EXPECT_EQ(back->s, rs.s);
  EXPECT_EQ(basic_blinding<C>::parse("12345,67890")->to_bytes()[0], 12345 % 256);
  EXPECT_FALSE(basic_blinding<C>::from_bytes(std::span(bytes).first(bytes.size() - 1)));
  std::fill(bytes.begin() + bytes.size() / 2, bytes.end(), 0xff);  // s = 2^256 − 1 > r
  EXPECT_FALSE(basic_blinding<C>::from_bytes(bytes));
}

TYPED_TEST(ProverTest, UnsatisfiedWitnessDoesNotYieldAValidProof) {
  using C = TypeParam;
  this->for_each_h_form([&](h_form h) {
    auto rng = test::rng(5);
    auto inst = test::make_random_instance<C>(rng, 20, 1, 2);
    auto pk = setup(inst.m, basic_toxic_waste<C>::random(), h);
    auto z = inst;
    z.z.back() += ff::fr<C>::one();  // a product wire no longer equals its product
    ASSERT_TRUE(r1cs::first_unsatisfied<C>(z.m, z.z).has_value());
    if (h == h_form::coefficient) {
      EXPECT_THROW(prove_instance(pk, z), std::invalid_argument);
    } else {
      EXPECT_FALSE(verify<C>(pk.vk(), public_of(z), prove_instance(pk, z)));
    }
  });
}

TEST(SetupTest, SeedGivesTheSameKey) {
  auto rng = test::rng(6);
  auto inst = test::make_random_instance(rng, 10, 1, 2);
  auto k1 = setup(inst.m, basic_toxic_waste<curves::bls12_381>::from_seed("s")),
       k2 = setup(inst.m, basic_toxic_waste<curves::bls12_381>::from_seed("s"));
  auto k3 = setup(inst.m, basic_toxic_waste<curves::bls12_381>::from_seed("t"));
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
  auto pk = setup(inst.m, basic_toxic_waste<curves::bls12_381>::random());
  basic_prover_buffers<curves::bls12_381> buf(pk);
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
