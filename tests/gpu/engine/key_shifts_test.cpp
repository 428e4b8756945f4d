// How a resident key's shifted MSM copies are planned (cuda/engine/device_key.hpp):
// within the allowance, H first, then L, A, B1 and B2; at most max_copies a
// query; the footprint grows by what the plan costs. No device needed.
#include <gtest/gtest.h>
#include <sys/mman.h>

#include <cstdio>
#include <span>

#include "cuda/engine/device_key.hpp"
#include "msm/booth.hpp"

namespace cuzk::cuda {
namespace {

using C = curves::bls12_381;

/* a key of n bases a query (the points themselves are not read) */
const groth16::basic_proving_key<C>& key_of(std::size_t n) {
  static groth16::basic_proving_key<C> pk = [n] {
    groth16::basic_proving_key<C> k;
    k.n_vars = std::uint32_t(n);
    k.domain_size = std::uint32_t(n);
    k.a.resize(n), k.b1.resize(n), k.b2.resize(n), k.c.resize(n - 2), k.h_query.resize(n);
    return k;
  }();
  return pk;
}

TEST(KeyShifts, HFirstThenLAThenB1AndB2WithinTheAllowance) {
  const auto& pk = key_of(std::size_t(1) << 16);
  const std::size_t plain = basic_device_key<C>::footprint(pk);
  auto only_h = [](const msm::shifts& h) {
    key_shifts k;
    k.h = h;
    return k;
  };

  const key_shifts all = plan_key_shifts(pk, std::size_t(1) << 40, -1);
  for (const msm::shifts* q : {&all.h, &all.c, &all.a, &all.b1, &all.b2}) {
    EXPECT_GT(q->copies, 0u);
    EXPECT_EQ(q->copies + 1, ::cuzk::msm::window_count(q->c, 255)); /* one virtual window */
  }
  const std::size_t full = basic_device_key<C>::footprint(pk, all);
  EXPECT_GT(full, plain);

  /* with nothing to spare, only copies that cost no more than they save (fewer buckets) */
  const key_shifts free = plan_key_shifts(pk, 0, -1);
  EXPECT_LE(basic_device_key<C>::footprint(pk, free), plain);
  EXPECT_LT(free.h.copies, all.h.copies);

  /* just enough for H's copies: H has them all, the others only what is free */
  const key_shifts h_first = plan_key_shifts(pk, basic_device_key<C>::footprint(pk, only_h(all.h)) - plain, -1);
  EXPECT_EQ(h_first.h, all.h);
  for (auto [got, want] :
       {std::pair{h_first.c, free.c}, {h_first.a, free.a}, {h_first.b1, free.b1}, {h_first.b2, free.b2}})
    EXPECT_EQ(got, want);
  EXPECT_TRUE(
      h_first.describe().starts_with("h " + std::to_string(all.h.copies) + "@" + std::to_string(all.h.c) + " l "));

  /* a little less: fewer copies of H, still within the allowance */
  const std::size_t less = basic_device_key<C>::footprint(pk, only_h(all.h)) - plain - 1;
  const key_shifts fewer = plan_key_shifts(pk, less, -1);
  EXPECT_LT(fewer.h.copies, all.h.copies);
  EXPECT_LE(basic_device_key<C>::footprint(pk, fewer) - plain, less);

  EXPECT_EQ(plan_key_shifts(pk, std::size_t(1) << 40, 0).total(), 0u);
  EXPECT_EQ(plan_key_shifts(pk, std::size_t(1) << 40, 0).describe(), "none");
  const key_shifts two = plan_key_shifts(pk, std::size_t(1) << 40, 2);
  for (const msm::shifts* q : {&two.h, &two.c, &two.a, &two.b1, &two.b2}) EXPECT_EQ(q->copies, 2u);
}

/* an H200: 139 GiB, 2 GiB reserve */
constexpr std::size_t h200_budget = (std::size_t(139) << 30) - (std::size_t(2) << 30);

double gib(std::size_t x) { return double(x) / double(1 << 30); }

/* A key over Curve whose points are a reservation of address space, never touched (only their count is
   read): A, B1 and B2 of `vars` points, L of `l_points`, H of `domain`. */
template <class Curve>
struct reserved_key {
  using key_t = groth16::basic_proving_key<Curve>;
  key_t pk;
  void* base = MAP_FAILED;
  std::size_t bytes = 0;

  reserved_key(std::size_t domain, std::size_t vars, std::size_t l_points, std::uint32_t n_public = 0) {
    const std::size_t sizes[5] = {vars * key_t::g1_bytes, vars * key_t::g1_bytes, l_points * key_t::g1_bytes,
                                  domain * key_t::g1_bytes, vars * key_t::g2_bytes};
    for (auto z : sizes) bytes += z;
    base = ::mmap(nullptr, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED) return;
    pk.n_vars = std::uint32_t(vars), pk.domain_size = std::uint32_t(domain), pk.n_public = n_public;
    const auto* b = static_cast<const std::uint8_t*>(base);
    std::span<const std::uint8_t>* spans[5] = {&pk.mapped.a, &pk.mapped.b1, &pk.mapped.c, &pk.mapped.h, &pk.mapped.b2};
    for (int i = 0; i < 5; ++i) *spans[i] = {b, sizes[i]}, b += sizes[i];
  }
  ~reserved_key() {
    if (base != MAP_FAILED) ::munmap(base, bytes);
  }
  reserved_key(const reserved_key&) = delete;
  reserved_key& operator=(const reserved_key&) = delete;
};

/* A key of 2^24 constraints (every query 2^24 points: the chain circuit's
   shape) on an H200 (one worker): the four G1 queries take every window's
   copies, B2 what is left. */
TEST(KeyShifts, A2To24KeyOnAnH200TakesCopiesOfEveryG1QueryAndSomeOfB2) {
  const std::size_t n = std::size_t(1) << 24;
  const reserved_key<C> k(n, n, n);
  ASSERT_NE(k.base, MAP_FAILED);
  const auto& pk = k.pk;
  const std::size_t need = basic_device_key<C>::footprint(pk) + working_bytes(pk);
  const key_shifts sh = plan_key_shifts(pk, h200_budget - need, -1);
  for (const msm::shifts* q : {&sh.h, &sh.c, &sh.a, &sh.b1}) EXPECT_EQ(*q, (msm::shifts{11, 22}));
  EXPECT_GT(sh.b2.copies, 0u);
  EXPECT_LT(sh.b2.copies, 11u);
  EXPECT_LE(basic_device_key<C>::footprint(pk, sh), h200_budget - working_bytes(pk));
  std::printf("2^24 key: %s; device bytes %.1f GiB plain, %.1f GiB with the copies\n", sh.describe().c_str(),
              gib(basic_device_key<C>::footprint(pk)), gib(basic_device_key<C>::footprint(pk, sh)));
}

/* item 8's memory column: a key of n points a query (n witness values, domain n), one worker, on an H200 */
template <class Curve>
void print_key_bytes(const char* curve, unsigned log_n) {
  const std::size_t n = std::size_t(1) << log_n;
  const reserved_key<Curve> k(n, n, n);
  ASSERT_NE(k.base, MAP_FAILED);
  const auto& pk = k.pk;
  const std::size_t plain = basic_device_key<Curve>::footprint(pk), worker = working_bytes(pk);
  ASSERT_LE(plain + worker, h200_budget) << curve << " 2^" << log_n;
  const key_shifts sh = plan_key_shifts(pk, h200_budget - plain - worker, -1);
  const std::size_t with = basic_device_key<Curve>::footprint(pk, sh);
  EXPECT_LE(with + worker, h200_budget);
  EXPECT_GT(with, plain);
  std::printf("%s 2^%u key: %.1f GiB plain, %.1f GiB with the copies (%s); a worker %.1f GiB\n", curve, log_n,
              gib(plain), gib(with), sh.describe().c_str(), gib(worker));
}

TEST(KeyShifts, DeviceBytesOfKeysOfBothCurvesPlainAndWithCopies) {
  for (unsigned log_n : {20u, 24u, 26u}) {
    print_key_bytes<curves::bls12_381>("BLS12-381", log_n);
    print_key_bytes<curves::bn254>("BN254", log_n);
  }
}

/* The seed-sized partition (sha256:blocks=4984: domain 2^27, 133,291,421 witness values, 2 public) on an
   H200: one proving worker's buffers fit beside its key; a second worker's do not (so WORKERS_PER_GPU=1 in
   partition_bench.sh, and the next slot's inputs cannot be double-buffered on the device), and what is
   left is less than one copy of H (12 GiB of points): such a key gets no copies. */
TEST(KeyShifts, A2To27PartitionKeyOnAnH200LeavesRoomForOneWorkerAndNoCopies) {
  const std::size_t n = std::size_t(1) << 27, v = 133291421;
  const reserved_key<C> k(n, v, v - 3, 2);
  ASSERT_NE(k.base, MAP_FAILED);
  const auto& pk = k.pk;
  const std::size_t key = basic_device_key<C>::footprint(pk), worker = working_bytes(pk);
  ASSERT_LE(key + worker, h200_budget);
  EXPECT_GT(key + 2 * worker, h200_budget) << "a second worker's buffers beside the plain key";
  EXPECT_LT(h200_budget - key - worker, n * groth16::basic_proving_key<C>::g1_bytes)
      << "less room than one copy of H's points";
  const key_shifts sh = plan_key_shifts(pk, h200_budget - key - worker, -1);
  EXPECT_EQ(sh.describe(), "none");
  std::printf(
      "2^27 partition key: %.1f GiB plain (points and MSM temporaries), a worker's buffers %.1f GiB, "
      "budget %.1f GiB: %s, %.1f GiB with the copies\n",
      gib(key), gib(worker), gib(h200_budget), sh.describe().c_str(), gib(basic_device_key<C>::footprint(pk, sh)));
}

}  // namespace
}  // namespace cuzk::cuda
