#include "circuits/poseidon.hpp"

#include <gtest/gtest.h>

#include <string>

#include "circuits/grain_lfsr.hpp"
#include "circuits/poseidon_gadget.hpp"
#include "r1cs/checking_cs.hpp"
#include "r1cs/counting_cs.hpp"
#include "random.hpp"
#include "seed.hpp"

namespace cuzk::circuits {
namespace {

fr_t from_hex(const std::string& hex) {
  std::array<std::uint8_t, 32> be{};
  for (std::size_t i = 0; i < 32; ++i) be[i] = static_cast<std::uint8_t>(std::stoi(hex.substr(2 * i, 2), nullptr, 16));
  return *fr_t::from_bytes_be(be);
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

TEST(Poseidon, ParametersHaveTheDocumentedShape) {
  const auto& p = poseidon_t3();
  EXPECT_EQ(p.t, 3u);
  EXPECT_EQ(p.r_f, 8u);
  EXPECT_EQ(p.r_p, 57u);
  EXPECT_EQ(p.round_constants.size(), 65u * 3);
  // Cauchy: 1/M[i][j] - 1/M[i][k] = y_j - y_k does not depend on i
  for (unsigned j = 0; j < 3; ++j)
    for (unsigned k = 0; k < 3; ++k) {
      const fr_t d0 = p.m(0, j).inverse() - p.m(0, k).inverse();
      for (unsigned i = 1; i < 3; ++i) EXPECT_EQ(p.m(i, j).inverse() - p.m(i, k).inverse(), d0);
    }
  // regenerating gives the same parameters
  const auto again = generate_poseidon_params(3, 8, 57);
  EXPECT_EQ(again.round_constants, p.round_constants);
  EXPECT_EQ(again.mds, p.mds);
}

TEST(Poseidon, GrainStartsFromTheParameterBits) {
  // Two generators with the same parameters agree, different ones do not.
  grain_lfsr a(1, 0, 255, 3, 8, 57), b(1, 0, 255, 3, 8, 57), c(1, 0, 255, 5, 8, 60);
  EXPECT_EQ(a.next_bits(255), b.next_bits(255));
  EXPECT_NE(a.next_bits(255), c.next_bits(255));
}

TEST(Poseidon, GadgetEqualsNativePermutation) {
  auto g = cuzk::test::rng(4);
  for (int trial = 0; trial < 4; ++trial) {
    const std::array<fr_t, 3> in = {test::random_fr(g), test::random_fr(g), test::random_fr(g)};
    r1cs::checking_cs cs;
    std::array<num, 3> state;
    for (int i = 0; i < 3; ++i) state[i] = num::of(cs.alloc_aux(in[i]), in[i]);
    const auto out = poseidon_permute(cs, state);
    const auto expected = poseidon_permute(in);
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

TEST(Poseidon, APermutationCosts243Constraints) {
  r1cs::counting_cs cs;
  poseidon_hash2(cs, num::constant(fr_t::one()), num::constant(fr_t::zero()));
  EXPECT_EQ(cs.sizes().constraints, (8u * 3 + 57) * 3);
}

TEST(Poseidon, HashIsTheFirstLaneOfThePermutation) {
  const fr_t l = fr_t::from_u64(1), r = fr_t::from_u64(2);
  EXPECT_EQ(poseidon_hash2(l, r), poseidon_permute({fr_t::zero(), l, r})[0]);
  EXPECT_NE(poseidon_hash2(l, r), poseidon_hash2(r, l));
}

}  // namespace
}  // namespace cuzk::circuits
