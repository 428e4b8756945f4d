#include "circuits/poseidon.hpp"

#include <gtest/gtest.h>

#include <string>

#include "circuits/grain_lfsr.hpp"
#include "circuits/poseidon_gadget.hpp"
#include "curves_under_test.hpp"
#include "r1cs/checking_cs.hpp"
#include "r1cs/counting_cs.hpp"
#include "random.hpp"
#include "seed.hpp"

namespace cuzk::circuits {
namespace {

template <class C = curves::bls12_381>
ff::fr<C> from_hex(std::string hex) {
  if (hex.starts_with("0x")) hex = hex.substr(2);
  std::array<std::uint8_t, 32> be{};
  for (std::size_t i = 0; i < 32; ++i) be[i] = static_cast<std::uint8_t>(std::stoi(hex.substr(2 * i, 2), nullptr, 16));
  return *ff::fr<C>::from_bytes_be(be);
}

// The authors' test vector for poseidonperm_x5_255_3 (hadeshash,
// code/test_vectors.txt): the permutation of [0, 1, 2]. It pins the Grain
// stream, the constants, the MDS matrix and the round structure at once.
TEST(Poseidon, PermutationMatchesTheAuthorsTestVector) {
  const auto out = poseidon_permute({fr_t::from_u64(0), fr_t::from_u64(1), fr_t::from_u64(2)});
  EXPECT_EQ(out[0], from_hex("28ce19420fc246a05553ad1e8c98f5c9d67166be2c18e9e4cb4b4e317dd2a78a"));
  EXPECT_EQ(out[1], from_hex("51f3e312c95343a896cfd8945ea82ba956c1118ce9b9859b6ea56637b4b1ddc4"));
  EXPECT_EQ(out[2], from_hex("3b2b69139b235626a0bfb56c9527ae66a7bf486ad8c11c14d1da0c69bbe0f79a"));
}

// circomlibjs 0.1.7 (src/poseidon_constants.json, t = 3: C[1] and M[1]) and
// its poseidon([1, 2]): the generated BN254 constants are circomlib's. The
// interop test interop.poseidon.bn254 compares hashes of random inputs.
TEST(Poseidon, OnBn254TheConstantsAndTheHashAreCircomlibs) {
  using C = curves::bn254;
  const auto& p = poseidon_t3<C>();
  EXPECT_EQ(p.rc(0, 0), from_hex<C>("0x0ee9a592ba9a9518d05986d656f40c2114c4993c11bb29938d21d47304cd8e6e"));
  EXPECT_EQ(p.rc(64, 2), from_hex<C>("0x1da55cc900f0d21f4a3e694391918a1b3c23b2ac773c6b3ef88e2e4228325161"));
  EXPECT_EQ(p.m(0, 0), from_hex<C>("0x109b7f411ba0e4c9b2b70caf5c36a7b194be7c11ad24378bfedb68592ba8118b"));
  EXPECT_EQ(p.m(2, 2), from_hex<C>("0x19a3fc0a56702bf417ba7fee3802593fa644470307043f7773279cd71d25d5e0"));
  EXPECT_EQ(poseidon_hash2<C>(ff::fr<C>::from_u64(1), ff::fr<C>::from_u64(2)).to_decimal(),
            "7853200120776062878684798364095072458815029376092732009249414926327459813530");
}

TEST(Poseidon, GrainStartsFromTheParameterBits) {
  // Two generators with the same parameters agree, different ones do not.
  grain_lfsr a(1, 0, 255, 3, 8, 57), b(1, 0, 255, 3, 8, 57), c(1, 0, 255, 5, 8, 60);
  EXPECT_EQ(a.next_bits(255), b.next_bits(255));
  EXPECT_NE(a.next_bits(255), c.next_bits(255));
}

template <class C>
class PoseidonOn : public ::testing::Test {};
TYPED_TEST_SUITE(PoseidonOn, test::curves_under_test, test::curve_names);

TYPED_TEST(PoseidonOn, ParametersHaveTheDocumentedShape) {
  using C = TypeParam;
  const auto& p = poseidon_t3<C>();
  EXPECT_EQ(p.t, 3u);
  EXPECT_EQ(p.r_f, 8u);
  EXPECT_EQ(p.r_p, 57u);
  EXPECT_EQ(p.round_constants.size(), 65u * 3);
  // Cauchy: 1/M[i][j] - 1/M[i][k] = y_j - y_k does not depend on i
  for (unsigned j = 0; j < 3; ++j)
    for (unsigned k = 0; k < 3; ++k) {
      const auto d0 = p.m(0, j).inverse() - p.m(0, k).inverse();
      for (unsigned i = 1; i < 3; ++i) EXPECT_EQ(p.m(i, j).inverse() - p.m(i, k).inverse(), d0);
    }
  // regenerating gives the same parameters
  const auto again = generate_poseidon_params<C>(3, 8, 57);
  EXPECT_EQ(again.round_constants, p.round_constants);
  EXPECT_EQ(again.mds, p.mds);
}

TYPED_TEST(PoseidonOn, GadgetEqualsNativePermutation) {
  using C = TypeParam;
  using fr = ff::fr<C>;
  auto g = cuzk::test::rng(4);
  for (int trial = 0; trial < 4; ++trial) {
    const std::array<fr, 3> in = {test::random_fr<C>(g), test::random_fr<C>(g), test::random_fr<C>(g)};
    r1cs::basic_checking_cs<C> cs;
    std::array<basic_num<C>, 3> state;
    for (int i = 0; i < 3; ++i) state[i] = basic_num<C>::of(cs.alloc_aux(in[i]), in[i]);
    const auto out = poseidon_permute(cs, state);
    const auto expected = poseidon_permute<C>(in);
    for (int i = 0; i < 3; ++i) {
      EXPECT_EQ(out[i].v, expected[i]);
      auto value = [&](r1cs::variable v) {
        return v.type == r1cs::variable::kind::input ? cs.inputs()[v.index] : cs.aux()[v.index];
      };
      EXPECT_EQ(out[i].l.evaluate(value), expected[i]);
    }
    EXPECT_TRUE(cs.satisfied());
  }
}

TYPED_TEST(PoseidonOn, APermutationCosts243Constraints) {
  using C = TypeParam;
  r1cs::basic_counting_cs<C> cs;
  poseidon_hash2(cs, basic_num<C>::constant(ff::fr<C>::one()), basic_num<C>::constant(ff::fr<C>::zero()));
  EXPECT_EQ(cs.sizes().constraints, (8u * 3 + 57) * 3);
}

TYPED_TEST(PoseidonOn, HashIsTheFirstLaneOfThePermutation) {
  using C = TypeParam;
  using fr = ff::fr<C>;
  auto g = cuzk::test::rng(6);
  const fr l = test::random_fr<C>(g), r = test::random_fr<C>(g);
  EXPECT_EQ(poseidon_hash2<C>(l, r), poseidon_permute<C>({fr::zero(), l, r})[0]);
  EXPECT_NE(poseidon_hash2<C>(l, r), poseidon_hash2<C>(r, l));
}

}  // namespace
}  // namespace cuzk::circuits
