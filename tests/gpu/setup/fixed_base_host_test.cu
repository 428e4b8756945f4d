// The device code of the setup's fixed-base products (fixed_base_thread.cuh)
// run on the host against groth16::fixed_base_table: the window sums, the
// shared inversion over a thread's batch, the thread/stride index walk and
// the device layout, in G1 and G2 of both curves. No device needed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <vector>

#include "cuda/setup/fixed_base_kernel.hpp"
#include "cuda/setup/fixed_base_thread.cuh"
#include "curves_under_test.hpp"
#include "groth16/fixed_base.hpp"
#include "seed.hpp"

namespace {

using namespace cuzk;

/* CPU points to the device layout (same Montgomery bytes; infinity is (0, 0)) and back */
template <class D, class A>
D to_device(const A& p) {
  D d;
  static_assert(sizeof(d.x) == sizeof(p.x));
  std::memset(&d, 0, sizeof d);
  if (!p.infinity) {
    std::memcpy(&d.x, &p.x, sizeof p.x);
    std::memcpy(&d.y, &p.y, sizeof p.y);
  }
  return d;
}
template <class A, class D>
A from_device(const D& d) {
  if (d.is_infinity()) return {};
  A p;
  std::memcpy(&p.x, &d.x, sizeof p.x);
  std::memcpy(&p.y, &d.y, sizeof p.y);
  p.infinity = false;
  return p;
}

/* G: ec::g1_group<C> or ec::g2_group<C>; F: its device field */
template <class G, class F>
void check(std::size_t n, std::uint64_t salt) {
  using A = typename groth16::fixed_base_table<G>::affine_t;
  using fr = ff::fr<typename G::curve>;
  auto rng = test::rng(salt);
  const groth16::fixed_base_table<G> table(G::generator());
  ASSERT_EQ(table.points().size(), cuda::setup::table_windows * cuda::setup::table_entries);
  std::vector<cuda::affine<F>> dt;
  for (const auto& p : table.points()) dt.push_back(to_device<cuda::affine<F>>(p));

  std::vector<fr> k(n);
  const fr edge[] = {fr::zero(), fr::one(), fr::zero() - fr::one()};
  for (std::size_t i = 0; i < n; ++i) k[i] = i < std::size(edge) ? edge[i] : fr::random(rng);
  std::shuffle(k.begin(), k.end(), rng);
  std::vector<cuda::fr<typename G::curve>> dk(n);
  static_assert(sizeof(dk[0]) == sizeof(fr));
  std::memcpy(dk.data(), k.data(), n * sizeof(fr));

  /* the kernel's grid: ceil(n / 8) threads, thread t takes t, t + T, ..., t + 7 T */
  constexpr unsigned batch = 8;
  const std::size_t threads = (n + batch - 1) / batch;
  std::vector<cuda::affine<F>> out(n);
  for (std::size_t t = 0; t < threads; ++t)
    cuda::setup::fixed_base_thread<F, batch>(dt.data(), dk.data(), out.data(), n, t, threads);

  const auto expect = table.mul_many(k);
  for (std::size_t i = 0; i < n; ++i) {
    const A got = from_device<A>(out[i]);
    ASSERT_EQ(got.infinity, expect[i].infinity) << "i = " << i << ", k = " << k[i].to_decimal();
    if (!got.infinity) {
      ASSERT_EQ(std::memcmp(&got.x, &expect[i].x, sizeof got.x), 0) << "i = " << i << ", k = " << k[i].to_decimal();
      ASSERT_EQ(std::memcmp(&got.y, &expect[i].y, sizeof got.y), 0) << "i = " << i << ", k = " << k[i].to_decimal();
    }
  }
}

template <class C>
class FixedBaseHost : public ::testing::Test {};
TYPED_TEST_SUITE(FixedBaseHost, test::curves_under_test, test::curve_names);

TYPED_TEST(FixedBaseHost, G1) {
  for (std::size_t n : {1, 3, 8, 9, 61}) check<ec::g1_group<TypeParam>, cuda::fp<TypeParam>>(n, n);
}

TYPED_TEST(FixedBaseHost, G2) {
  for (std::size_t n : {1, 3, 17}) check<ec::g2_group<TypeParam>, cuda::fp2<TypeParam>>(n, 100 + n);
}

}  // namespace
