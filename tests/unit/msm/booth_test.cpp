// Signed-digit windows: the digits are in range and sum back to the scalar,
// with the window count of each curve's scalar length.
#include <gtest/gtest.h>

#include "msm/booth.hpp"
#include "msm_test_util.hpp"
#include "seed.hpp"

namespace cuzk::msm {
namespace {

/* sum_w d_w 2^(wc) as a 256-bit integer over W windows (two's complement
   wrap-around is fine: the true sum is in [0, 2^bits)) */
scalar_limbs_t recompose(const scalar_limbs_t& k, unsigned c, unsigned windows) {
  scalar_limbs_t acc{};
  for (unsigned w = windows; w-- > 0;) {
    for (unsigned i = 0; i < c; ++i) ff::limbs::add(acc, acc, acc); /* acc *= 2^c */
    const std::int32_t d = booth_digit(k, w, c);
    const scalar_limbs_t mag{std::uint64_t(d < 0 ? -std::int64_t(d) : d), 0, 0, 0};
    if (d >= 0)
      ff::limbs::add(acc, acc, mag);
    else
      ff::limbs::sub(acc, acc, mag);
  }
  return acc;
}

/* 2^b - 1 */
scalar_limbs_t ones_below(unsigned b) {
  scalar_limbs_t k{};
  for (unsigned i = 0; i < b; ++i) k[i / 64] |= std::uint64_t(1) << (i % 64);
  return k;
}

template <class C>
class Booth : public test::curve_test<C, 11> {};
TYPED_TEST_SUITE(Booth, test::curves, cuzk::test::curve_names);

TYPED_TEST(Booth, DigitsAreInRangeAndRecomposeTheScalar) {
  using C = TypeParam;
  constexpr unsigned bits = scalar_bits<C>;
  /* 0, 1, r - 1, 2^bits - 1 (every bit the scalars can have), 2^(bits-1) */
  std::vector<scalar_limbs_t> ks{{0, 0, 0, 0}, {1, 0, 0, 0}, test::minus_one<C>().to_canonical(), ones_below(bits)};
  scalar_limbs_t top{};
  top[(bits - 1) / 64] = std::uint64_t(1) << ((bits - 1) % 64);
  ks.push_back(top);
  for (int i = 0; i < 30; ++i) ks.push_back(test::random_scalar<C>(this->rng));
  for (unsigned c = 1; c <= max_window_bits; ++c) {
    const std::int32_t half = std::int32_t(1) << (c - 1);
    const unsigned W = window_count(c, bits);
    for (const auto& k : ks) {
      for (unsigned w = 0; w < W; ++w) {
        const std::int32_t d = booth_digit(k, w, c);
        ASSERT_LE(d, half);
        ASSERT_GE(d, -half);
      }
      ASSERT_EQ(recompose(k, c, W), k) << "c = " << c;
    }
  }
}

/* W c > bits, so the top window's top bit is past every scalar's; and no
   window more than that */
TYPED_TEST(Booth, WindowsCoverEveryBitOfR) {
  constexpr unsigned bits = scalar_bits<TypeParam>;
  for (unsigned c = 1; c <= max_window_bits; ++c) {
    EXPECT_GE(window_count(c, bits) * c, bits + 1) << c;
    EXPECT_LT((window_count(c, bits) - 1) * c, bits + 1) << c;
  }
}

TEST(BoothBits, ScalarLengthsAndWindowCounts) {
  EXPECT_EQ(scalar_bits<curves::bls12_381>, 255u);
  EXPECT_EQ(scalar_bits<curves::bn254>, 254u);
  EXPECT_EQ(window_count(16, 255), 16u); /* ceil(256 / 16) */
  EXPECT_EQ(window_count(13, 255), 20u);
  EXPECT_EQ(window_count(5, 254), 51u); /* ceil(255 / 5): 51 x 5 = 255 exactly */
  EXPECT_EQ(window_count(8, 254), 32u);
}

TEST(BoothBits, BitsPastTheTopReadAsZero) {
  const scalar_limbs_t k{~0ull, ~0ull, ~0ull, ~0ull};
  EXPECT_EQ(bits_at(k, 250, 10), 0x3fu);
  EXPECT_EQ(bits_at(k, 256, 10), 0u);
  EXPECT_EQ(bits_at({0, 1, 0, 0}, 60, 8), 0x10u); /* crosses a limb boundary */
}

}  // namespace
}  // namespace cuzk::msm
