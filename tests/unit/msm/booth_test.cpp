// Signed-digit windows: the digits are in range and sum back to the scalar.
#include <gtest/gtest.h>

#include "msm/booth.hpp"
#include "msm_test_util.hpp"
#include "seed.hpp"

namespace cuzk::msm {
namespace {

/* sum_w d_w 2^(wc) as a 256-bit integer (two's complement wrap-around is fine:
   the true sum is in [0, 2^255)) */
scalar_limbs_t recompose(const scalar_limbs_t& k, unsigned c) {
  scalar_limbs_t acc{};
  for (unsigned w = window_count(c); w-- > 0;) {
    for (unsigned i = 0; i < c; ++i) ff::limbs::add(acc, acc, acc);  /* acc *= 2^c */
    const std::int32_t d = booth_digit(k, w, c);
    const scalar_limbs_t mag{std::uint64_t(d < 0 ? -std::int64_t(d) : d), 0, 0, 0};
    if (d >= 0) ff::limbs::add(acc, acc, mag);
    else ff::limbs::sub(acc, acc, mag);
  }
  return acc;
}

TEST(Booth, DigitsAreInRangeAndRecomposeTheScalar) {
  auto rng = cuzk::test::rng(11);
  std::vector<scalar_limbs_t> ks{{0, 0, 0, 0}, {1, 0, 0, 0}, (-fr_t::one()).to_canonical(),
                                 {~0ull, ~0ull, ~0ull, ~0ull >> 1}};
  for (int i = 0; i < 50; ++i) ks.push_back(test::random_scalar(rng));
  for (unsigned c = 1; c <= max_window_bits; ++c) {
    const std::int32_t half = std::int32_t(1) << (c - 1);
    for (const auto& k : ks) {
      for (unsigned w = 0; w < window_count(c); ++w) {
        const std::int32_t d = booth_digit(k, w, c);
        ASSERT_LE(d, half);
        ASSERT_GE(d, -half);
      }
      ASSERT_EQ(recompose(k, c), k) << "c = " << c;
    }
  }
}

TEST(Booth, WindowsCoverEveryBitOfR) {
  for (unsigned c = 1; c <= max_window_bits; ++c) EXPECT_GE(window_count(c) * c, 256u) << c;
}

TEST(Booth, BitsPastTheTopReadAsZero) {
  const scalar_limbs_t k{~0ull, ~0ull, ~0ull, ~0ull};
  EXPECT_EQ(bits_at(k, 250, 10), 0x3fu);
  EXPECT_EQ(bits_at(k, 256, 10), 0u);
  EXPECT_EQ(bits_at({0, 1, 0, 0}, 60, 8), 0x10u);  /* crosses a limb boundary */
}

}  // namespace
}  // namespace cuzk::msm
