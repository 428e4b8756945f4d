// The device sizing the CUDA engine runs, checked on the host against what the
// H200 runs showed (docs/benchmarks.md; tests/gpu/engine/key_shifts_test.cpp
// checks the same figures through the engine's own names on the device).
#include <gtest/gtest.h>

#include "sizing/device_memory.hpp"

namespace cuzk::sizing {
namespace {

constexpr std::uint64_t GiB = std::uint64_t(1) << 30;
/* an H200 (139 GiB) less the default 2 GiB reserve */
constexpr std::uint64_t h200_budget = 139 * GiB - 2 * GiB;

key_dims square(unsigned log_n, curves::curve_id c = curves::curve_id::bls12_381) {
  const std::uint64_t n = std::uint64_t(1) << log_n;
  key_dims k;
  k.curve = c;
  k.n_vars = k.domain = n;
  k.a = k.b1 = k.b2 = k.c = k.h = n;
  return k;
}

double gib(std::uint64_t b) { return double(b) / double(GiB); }

TEST(MsmMemory, ThePlainWindowAt2To24IsTwentyBits) {
  EXPECT_EQ(msm_window_bits(std::size_t(1) << 24, 255), 20u);
  EXPECT_EQ(msm_choose_layout(std::size_t(1) << 24, {}, 255).K, 1u);
}

TEST(MsmMemory, CopiesThatPayFoldTheirWindowsIntoVirtualOnes) {
  const std::size_t n = std::size_t(1) << 22;
  const msm_shifts sh = msm_plan_shifts(n, 11, 255);
  ASSERT_GT(sh.copies, 0u);
  EXPECT_LT(msm_shifted_cost(n, sh, 255), msm_plain_cost(n, msm_window_bits(n, 255), 255));
  const msm_layout l = msm_choose_layout(n, sh, 255);
  EXPECT_EQ(l.c, sh.c);
  EXPECT_EQ(l.K, sh.copies + 1);
  EXPECT_TRUE(l.per_group % l.K == 0 || l.per_group == l.W);
  EXPECT_EQ(msm_workspace_bytes(n, sh, 192, 255), msm_layout_bytes(n, l, 192));
  /* no copies allowed: plain */
  EXPECT_EQ(msm_plan_shifts(n, 0, 255).copies, 0u);
}

TEST(DeviceMemory, KeyDimsOfAZkeyHeader) {
  const key_dims k = key_dims::of(curves::curve_id::bn254, 1000, 3, 1024, true);
  EXPECT_EQ(k.a, 1000u);
  EXPECT_EQ(k.b2, 1000u);
  EXPECT_EQ(k.c, 996u);
  EXPECT_EQ(k.h, 1023u);
  EXPECT_EQ(key_dims::of(curves::curve_id::bn254, 1000, 3, 1024).h, 1024u);
  EXPECT_EQ(bases_bytes(k), (1000 + 1000 + 996 + 1023) * 64u + 1000 * 128u);
}

/* docs/benchmarks.md, "Whole proofs with the copies": a 2^24 key, one worker,
   9 GiB of bases, and H, L, A and B1 eleven copies at c = 22 */
TEST(DeviceMemory, A2To24KeyOnAnH200TakesElevenCopiesOfEveryG1Query) {
  const key_dims k = square(24);
  EXPECT_EQ(bases_bytes(k), 9 * GiB);
  EXPECT_GT(gib(key_footprint(k)), 9.0);
  const std::uint64_t need = resident_need(k, 1);
  const key_copies sh = plan_key_copies(k, h200_budget - need, -1);
  for (const msm_shifts* q : {&sh.h, &sh.c, &sh.a, &sh.b1}) EXPECT_EQ(*q, (msm_shifts{11, 22}));
  EXPECT_GT(sh.b2.copies, 0u);
  EXPECT_LT(sh.b2.copies, 11u);
  EXPECT_LE(key_footprint(k, sh), h200_budget - working_bytes(k));
  EXPECT_EQ(shifted_bytes(k, sh), (4 * 11 * 96 + std::uint64_t(sh.b2.copies) * 192) << 24);
}

/* the seed-sized partition (domain 2^27, 133,291,421 witness values, 2 public): one worker fits, two do not */
TEST(DeviceMemory, A2To27PartitionKeyLeavesRoomForOneWorkerAndNoCopies) {
  const key_dims k = key_dims::of(curves::curve_id::bls12_381, 133291421, 2, std::uint64_t(1) << 27);
  EXPECT_EQ(workers_that_fit(k, h200_budget), 1u);
  EXPECT_LE(resident_need(k, 1), h200_budget);
  EXPECT_GT(resident_need(k, 2), h200_budget);
  EXPECT_EQ(plan_key_copies(k, h200_budget - resident_need(k, 1), -1).describe(), "none");
}

TEST(DeviceMemory, TheBudgetIsTheConfiguredOneCappedOrTheDeviceSplitBetweenSharers) {
  EXPECT_EQ(device_budget(100 * GiB, 2 * GiB, 0, 1), 98 * GiB);
  EXPECT_EQ(device_budget(100 * GiB, 2 * GiB, 0, 2), 49 * GiB);
  EXPECT_EQ(device_budget(100 * GiB, 2 * GiB, 40 * GiB, 2), 40 * GiB);
  EXPECT_EQ(device_budget(100 * GiB, 2 * GiB, 400 * GiB, 1), 98 * GiB);
  EXPECT_EQ(device_budget(GiB, 2 * GiB, 0, 1), 0u);
}

TEST(DeviceMemory, CopiesLeaveTheReserveAndAQuarterOfEachWorkersBuffers) {
  const key_dims k = square(20);
  const std::uint64_t need = resident_need(k, 2), margin = 2 * GiB + 2 * (working_bytes(k) / 4);
  EXPECT_EQ(copies_allowance(k, 2, 40 * GiB, 0, 80 * GiB, 2 * GiB), 40 * GiB - need - margin);
  /* the device's free memory limits them too */
  EXPECT_EQ(copies_allowance(k, 2, 40 * GiB, 0, 10 * GiB, 2 * GiB), 10 * GiB - 2 * GiB - need - margin);
  EXPECT_EQ(copies_allowance(k, 2, 40 * GiB, 0, 0, 2 * GiB), 0u);
  EXPECT_EQ(copies_allowance(k, 2, need, 0, 80 * GiB, 2 * GiB), 0u);
}

TEST(DeviceMemory, NoWorkerFitsBesideAKeyLargerThanTheBudget) {
  const key_dims k = square(24);
  EXPECT_EQ(workers_that_fit(k, key_footprint(k) - 1), 0u);
  EXPECT_EQ(workers_that_fit(k, key_footprint(k) + working_bytes(k)), 1u);
  EXPECT_EQ(workers_that_fit(k, key_footprint(k) + 3 * working_bytes(k) - 1), 2u);
}

TEST(DeviceMemory, Bn254PointsAreTwoThirdsOfBls12381s) {
  EXPECT_EQ(bases_bytes(square(20, curves::curve_id::bn254)) * 3, bases_bytes(square(20)) * 2);
}

}  // namespace
}  // namespace cuzk::sizing
