// Device Pippenger and batch sum against the CPU's msm::g1_msm<C>/g2_msm<C>
// (pippenger, sum), in G1 and G2 of both curves: random inputs each run
// (seed printed), sizes around the window and chunk boundaries, and the edge
// cases a witness brings (zeros, ones, r - 1, repeated bases, points at
// infinity, index arrays).
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <string>

#include "cuda/msm/layout.hpp"
#include "gpu_test.hpp"
#include "msm_gpu_util.hpp"
#include "seed.hpp"

namespace cuzk::cuda::msm {
namespace {

template <class G>
class DeviceMsm : public ::testing::Test {
 protected:
  std::mt19937_64 rng = cuzk::test::rng(std::hash<std::string>{}(test::group_names::GetName<G>(0)) + 901);
};
TYPED_TEST_SUITE(DeviceMsm, test::all_groups, test::group_names);

TYPED_TEST(DeviceMsm, RandomScalarsMatchTheCpuAtManySizes) {
  CUZK_REQUIRE_GPU();
  const auto bases = TypeParam::random_bases(this->rng, (std::size_t(1) << 16) + 1);
  const typename TypeParam::bases_t dev(bases);
  for (std::size_t n : {1, 2, 3, 31, 32, 33, 1023, 1025, 8191, 8193, 65535, 65536, 65537}) {
    SCOPED_TRACE(n);
    const auto k = TypeParam::random_scalars(this->rng, n);
    test::expect_pippenger<TypeParam>(dev, bases, k);
  }
}

TYPED_TEST(DeviceMsm, RandomScalarsMatchTheCpuAt2To20) {
  CUZK_REQUIRE_GPU();
  const std::size_t n = std::size_t(1) << 20;
  const auto bases = TypeParam::random_bases(this->rng, n);
  const typename TypeParam::bases_t dev(bases);
  test::expect_pippenger<TypeParam>(dev, bases, TypeParam::random_scalars(this->rng, n));
}

TYPED_TEST(DeviceMsm, ZerosOnesAndMinusOne) {
  CUZK_REQUIRE_GPU();
  const std::size_t n = 5000;
  const auto bases = TypeParam::random_bases(this->rng, n);
  const typename TypeParam::bases_t dev(bases);
  std::vector<test::scalar_limbs_t> k(n, test::scalar_limbs_t{0, 0, 0, 0});
  const auto zero = pippenger(dev, scalars{test::to_device<test::scalar_limbs_t>(k, "k").data(), nullptr, 0, n}, 0);
  EXPECT_TRUE(zero.is_identity());
  test::expect_pippenger<TypeParam>(dev, bases, k);
  std::fill(k.begin(), k.end(), test::small_scalar(1));
  test::expect_pippenger<TypeParam>(dev, bases, k);
  std::fill(k.begin(), k.end(), TypeParam::minus_one());
  test::expect_pippenger<TypeParam>(dev, bases, k);
  /* a mix: small values crowd a few buckets, r - 1 has every digit at its extreme */
  for (std::size_t i = 0; i < n; ++i) {
    const auto u = this->rng() % 5;
    k[i] = u == 0   ? test::small_scalar(this->rng() % 4)
           : u == 1 ? TypeParam::minus_one()
                    : TypeParam::random_scalar(this->rng);
  }
  test::expect_pippenger<TypeParam>(dev, bases, k);
}

TYPED_TEST(DeviceMsm, RepeatedAndOppositeBasesAndInfinity) {
  CUZK_REQUIRE_GPU();
  const std::size_t n = 4099;
  auto bases = TypeParam::random_bases(this->rng, 7);
  /* the same few points, their negatives and the point at infinity, in a random order:
     buckets meet P + P and P + (-P) */
  std::vector<typename TypeParam::aff_t> many(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto u = this->rng() % 16;
    many[i] = u == 0 ? typename TypeParam::aff_t{} : u % 2 ? -bases[u % 7] : bases[u % 7];
  }
  const typename TypeParam::bases_t dev(many);
  test::expect_pippenger<TypeParam>(dev, many, TypeParam::random_scalars(this->rng, n));
  std::vector<test::scalar_limbs_t> same(n, TypeParam::random_scalar(this->rng));
  test::expect_pippenger<TypeParam>(dev, many, same);
  for (std::size_t i = 0; i < n; ++i) same[i] = test::small_scalar(1 + this->rng() % 3);
  test::expect_pippenger<TypeParam>(dev, many, same);
  test::expect_sum<TypeParam>(dev, many, {}, 0, n);
}

TYPED_TEST(DeviceMsm, IndexArrayWithAnOffset) {
  CUZK_REQUIRE_GPU();
  const std::size_t m = 20000;
  const auto bases = TypeParam::random_bases(this->rng, m);
  const typename TypeParam::bases_t dev(bases);
  /* an increasing subset of [first, first + m), as the split of the C query's tail gives */
  const std::uint32_t first = 1 + std::uint32_t(this->rng() % 1000);
  std::vector<std::uint32_t> idx;
  for (std::uint32_t i = 0; i < m; ++i)
    if (this->rng() % 3) idx.push_back(first + i);
  test::expect_pippenger<TypeParam>(dev, bases, TypeParam::random_scalars(this->rng, idx.size()), idx, first);
  test::expect_sum<TypeParam>(dev, bases, idx, first, idx.size());
}

TYPED_TEST(DeviceMsm, BitReversedIndexArray) {
  CUZK_REQUIRE_GPU();
  const unsigned log_n = 14;
  const auto bases = TypeParam::random_bases(this->rng, std::size_t(1) << log_n);
  const typename TypeParam::bases_t dev(bases);
  const auto idx = test::bit_reversed(log_n);
  test::expect_pippenger<TypeParam>(dev, bases, TypeParam::random_scalars(this->rng, idx.size()), idx, 0);
}

TYPED_TEST(DeviceMsm, SumMatchesTheCpu) {
  CUZK_REQUIRE_GPU();
  const std::size_t m = 70001;
  auto bases = TypeParam::random_bases(this->rng, m);
  bases[17] = {};
  bases[m - 1] = bases[3];
  const typename TypeParam::bases_t dev(bases);
  for (std::size_t n : {0, 1, 2, 31, 32, 33, 1000, 70001}) {
    SCOPED_TRACE(n);
    test::expect_sum<TypeParam>(dev, bases, {}, 0, n);
  }
  std::vector<std::uint32_t> idx(m);
  std::iota(idx.begin(), idx.end(), 5u);
  std::shuffle(idx.begin(), idx.end(), this->rng);
  idx.resize(40000);
  test::expect_sum<TypeParam>(dev, bases, idx, 5, idx.size());
}

TYPED_TEST(DeviceMsm, EmptyMsmIsTheIdentity) {
  CUZK_REQUIRE_GPU();
  const auto bases = TypeParam::random_bases(this->rng, 4);
  const typename TypeParam::bases_t dev(bases);
  EXPECT_TRUE(pippenger(dev, scalars{nullptr, nullptr, 0, 0}, 0).is_identity());
  EXPECT_TRUE(sum(dev, nullptr, 0, 0, 0).is_identity());
}

/* Shifted copies (msm.hpp: shifts) none, one, two and every window's, at
   small windows so that the cost model takes them at these sizes: a single
   scalar, buckets of one point, every point in one bucket, infinity and
   repeated bases, an index array; then the copies dropped again. */
TYPED_TEST(DeviceMsm, ShiftedCopiesMatchTheCpu) {
  CUZK_REQUIRE_GPU();
  constexpr unsigned bits = cuzk::msm::scalar_bits<typename TypeParam::C>;
  const std::size_t m = 3000;
  auto bases = TypeParam::random_bases(this->rng, m);
  bases[5] = {};
  bases[9] = bases[10];
  bases[11] = -bases[12];
  typename TypeParam::bases_t dev(bases);
  const std::size_t plain_bytes = dev.bytes();
  const unsigned W7 = cuzk::msm::window_count(7, bits), W12 = cuzk::msm::window_count(12, bits);
  /* pairs where the cost model (window.cpp) takes the copies at every n below */
  for (const auto& [c, copies] : {std::pair{7u, 0u}, {7u, 1u}, {7u, W7 - 1}, {12u, 2u}, {12u, W12 - 1}}) {
    {
      SCOPED_TRACE("c = " + std::to_string(c) + ", copies = " + std::to_string(copies));
      dev.shift({copies, c}, 0);
      EXPECT_EQ(dev.shifted().copies, copies);
      EXPECT_GE(dev.bytes(), (copies + 1) * plain_bytes);
      for (std::size_t n : {std::size_t(1), std::size_t(2), std::size_t(40), m}) {
        SCOPED_TRACE(n);
        if (copies) {
          EXPECT_EQ(choose_layout(n, dev.shifted(), bits).K, copies + 1);
        }
        auto k = TypeParam::random_scalars(this->rng, n);
        test::expect_pippenger<TypeParam>(dev, bases, k);
        std::fill(k.begin(), k.end(), TypeParam::random_scalar(this->rng)); /* one bucket a window */
        test::expect_pippenger<TypeParam>(dev, bases, k);
      }
      std::vector<std::uint32_t> idx;
      for (std::uint32_t i = 0; i < m; ++i)
        if (this->rng() % 2) idx.push_back(7 + i);
      test::expect_pippenger<TypeParam>(dev, bases, TypeParam::random_scalars(this->rng, idx.size()), idx, 7);
      test::expect_sum<TypeParam>(dev, bases, {}, 0, m);
    }
  }
  dev.shift({}, 0);
  EXPECT_EQ(dev.shifted().copies, 0u);
  test::expect_pippenger<TypeParam>(dev, bases, TypeParam::random_scalars(this->rng, m));
}

/* At a key's size: every window folded into one (c = 16, 2^16 bases), against the plain MSM. */
TYPED_TEST(DeviceMsm, ShiftedCopiesAt2To16) {
  CUZK_REQUIRE_GPU();
  const std::size_t n = std::size_t(1) << 16;
  const auto bases = TypeParam::random_bases(this->rng, n);
  typename TypeParam::bases_t dev(bases);
  const auto sh = plan_shifts(n, 64, cuzk::msm::scalar_bits<typename TypeParam::C>);
  ASSERT_GT(sh.copies, 0u);
  dev.shift(sh, 0);
  const auto k = TypeParam::random_scalars(this->rng, n);
  test::expect_pippenger<TypeParam>(dev, bases, k);
  /* the same sum with its phases timed */
  auto dk = test::to_device<test::scalar_limbs_t>(k, "k");
  phase_times pt;
  const auto timed = pippenger(dev, scalars{dk.data(), nullptr, 0, n}, 0, &pt);
  EXPECT_EQ(timed.to_affine(), TypeParam::cpu(bases, k).to_affine());
  EXPECT_GT(pt.assign_ms, 0);
  EXPECT_GT(pt.accumulate_ms, 0);
  EXPECT_GT(pt.reduce_ms, 0);
}

TEST(DeviceMsmWindow, ShiftsPlanOneVirtualWindowWhereMemoryAllows) {
  for (unsigned bits : {255u, 254u}) {
    for (unsigned log_n : {16u, 20u, 24u, 26u}) {
      const std::size_t n = std::size_t(1) << log_n;
      const shifts all = plan_shifts(n, 64, bits);
      SCOPED_TRACE(log_n);
      ASSERT_GT(all.copies, 0u);
      EXPECT_LE(all.c, max_shifted_window);
      EXPECT_EQ(all.copies + 1, cuzk::msm::window_count(all.c, bits)); /* one virtual window */
      EXPECT_LT(shifted_cost(n, all, bits), plain_cost(n, window_bits(n, bits), bits));
      const shifts few = plan_shifts(n, 2, bits);
      EXPECT_LE(few.copies, 2u);
      EXPECT_GE(shifted_cost(n, few, bits), shifted_cost(n, all, bits));
      EXPECT_EQ(plan_shifts(n, 0, bits), shifts{});
      const layout l = choose_layout(n, all, bits);
      EXPECT_EQ(l.K, all.copies + 1);
      EXPECT_EQ(l.per_group, l.W);
      EXPECT_GT(workspace_bytes(n, all, 192, bits), 16 * n * l.W);
    }
  }
}

/* Every point of every copy keeps a 31-bit index: 2^28 bases (BN254's largest domain) take at most 6 copies. */
TEST(DeviceMsmWindow, ShiftsStayBelow2To31Points) {
  for (unsigned log_n : {27u, 28u, 30u}) {
    const std::size_t n = std::size_t(1) << log_n;
    const shifts sh = plan_shifts(n, 64, 254);
    EXPECT_LT((sh.copies + 1) * n, max_shifted_points) << log_n;
  }
  EXPECT_EQ(plan_shifts(std::size_t(1) << 28, 64, 254).copies, 6u);
  EXPECT_EQ(plan_shifts(std::size_t(1) << 30, 64, 254).copies, 0u);
  EXPECT_EQ(plan_shifts(std::size_t(1) << 31, 64, 254).copies, 0u);
}

TEST(DeviceMsmWindow, WindowGrowsWithNAndStaysInRange) {
  for (unsigned bits : {255u, 254u}) {
    unsigned last = 0;
    for (std::size_t n = 1; n <= (std::size_t(1) << 30); n *= 2) {
      const unsigned c = window_bits(n, bits);
      EXPECT_GE(c, 2u);
      EXPECT_LE(c, 20u);
      EXPECT_GE(c, last);
      last = c;
    }
  }
  EXPECT_EQ(window_bits(std::size_t(1) << 24), window_bits(std::size_t(1) << 24, 255));  // BLS12-381 by default
}

}  // namespace
}  // namespace cuzk::cuda::msm
