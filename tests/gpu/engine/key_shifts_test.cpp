// How a resident key's shifted MSM copies are planned (cuda/engine/device_key.hpp):
// within the allowance, H first, then L, A, B1 and B2; at most max_copies a
// query; the footprint grows by what the plan costs. No device needed.
#include <gtest/gtest.h>

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
    EXPECT_EQ(q->copies + 1, ::cuzk::msm::window_count(q->c, 255));  /* one virtual window */
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
  for (auto [got, want] : {std::pair{h_first.c, free.c}, {h_first.a, free.a}, {h_first.b1, free.b1}, {h_first.b2, free.b2}})
    EXPECT_EQ(got, want);
  EXPECT_TRUE(h_first.describe().starts_with("h " + std::to_string(all.h.copies) + "@" + std::to_string(all.h.c) + " l "));

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

}  // namespace
}  // namespace cuzk::cuda
