// The device curve templates run on the host (label math, no GPU needed)
// against the CPU curve, G1 and G2 of both curves: XYZZ madd/add/dbl chains
// through every special case, the batch-affine addition helper, and the byte
// conversions.
#include <gtest/gtest.h>

#include <cstring>

#include "curve_cases.hpp"

namespace cuzk::test {
namespace {

template <class T>
class DeviceCurveOnHost : public ::testing::Test {};
TYPED_TEST_SUITE(DeviceCurveOnHost, curve_types, group_names);

TYPED_TEST(DeviceCurveOnHost, MixedAdditionChainsMatchTheCpuThroughEverySpecialCase) {
  using io = curve_io<TypeParam>;
  auto g = cuzk::test::rng(21);
  const auto pool = group<typename TypeParam::curve>::random_bases(g, 16);
  for (int chain = 0; chain < 40; ++chain) {
    std::vector<typename io::cpu_affine> ops;
    const auto expected = io::madd_chain(g, pool, 24, ops);
    auto acc = io::dev_xyzz::identity();
    for (const auto& q : ops) acc.add(io::to_device(q));
    EXPECT_TRUE(io::to_cpu(acc) == expected.to_jacobian()) << "chain " << chain;
    EXPECT_TRUE(io::to_cpu(acc.dbl()) == expected.dbl().to_jacobian()) << "chain " << chain;
  }
}

TYPED_TEST(DeviceCurveOnHost, AdditionOfXyzzPointsMatchesTheCpu) {
  using io = curve_io<TypeParam>;
  auto g = cuzk::test::rng(22);
  const auto pool = group<typename TypeParam::curve>::random_bases(g, 16);
  std::vector<typename io::cpu_xyzz> p, q;
  io::xyzz_pairs(g, pool, 64, p, q);
  for (std::size_t i = 0; i < p.size(); ++i) {
    auto a = io::to_device(p[i]);
    a.add(io::to_device(q[i]));
    auto expected = p[i];
    expected += q[i];
    EXPECT_TRUE(io::to_cpu(a) == expected.to_jacobian()) << "pair " << i;
    EXPECT_TRUE(io::to_cpu(a) == p[i].to_jacobian() + q[i].to_jacobian()) << "pair " << i;
    auto n = io::to_device(p[i]);
    n.neg();
    EXPECT_TRUE(io::to_cpu(n) == -p[i].to_jacobian()) << "pair " << i;
  }
}

/* The accessor forms of the additions (ec/xyzz.cuh: add_affine_to, add_to,
   dbl_in_place; G2's bucket kernels run them on sums in shared memory) on a
   point in memory: the member additions' bytes, through the same special cases. */
template <class F>
struct local_sum {
  cuda::xyzz<F>* p;
  F get(unsigned i) const { return (&p->X)[i]; }
  void put(unsigned i, const F& v) const { (&p->X)[i] = v; }
  void set(const cuda::xyzz<F>& v) const { *p = v; }
  cuda::xyzz<F> value() const { return *p; }
};

template <class X>
bool same_bytes(const X& a, const X& b) {
  return std::memcmp(&a, &b, sizeof(X)) == 0;
}

TYPED_TEST(DeviceCurveOnHost, AdditionsThroughAnAccessorMatchTheMemberAdditions) {
  using io = curve_io<TypeParam>;
  using X = typename io::dev_xyzz;
  using F = typename X::field_t;
  auto g = cuzk::test::rng(23);
  const auto pool = group<typename TypeParam::curve>::random_bases(g, 16);
  for (int chain = 0; chain < 40; ++chain) {
    std::vector<typename io::cpu_affine> ops;
    const auto expected = io::madd_chain(g, pool, 24, ops);
    X acc = X::identity(), ref = X::identity(), sum = X::identity(), sum_ref = X::identity();
    for (const auto& q : ops) {
      const auto d = io::to_device(q);
      cuda::add_affine_to<F>(local_sum<F>{&acc}, d);
      ref.add(d);
      cuda::add_to<F>(local_sum<F>{&sum}, cuda::point_ref<F>{&acc}); /* sum of the running sums: meets 2 P */
      sum_ref.add(ref);
      ASSERT_TRUE(same_bytes(acc, ref)) << "chain " << chain;
      ASSERT_TRUE(same_bytes(sum, sum_ref)) << "chain " << chain;
    }
    EXPECT_TRUE(io::to_cpu(acc) == expected.to_jacobian()) << "chain " << chain;
  }
  std::vector<typename io::cpu_xyzz> p, q;
  io::xyzz_pairs(g, pool, 64, p, q);
  for (std::size_t i = 0; i < p.size(); ++i) {
    X a = io::to_device(p[i]), b = a;
    const X d = io::to_device(q[i]);
    a.add(d);
    cuda::add_to<F>(local_sum<F>{&b}, cuda::point_ref<F>{&d});
    EXPECT_TRUE(same_bytes(a, b)) << "pair " << i;
  }
}

TYPED_TEST(DeviceCurveOnHost, AffineAdditionWithAPrecomputedInverseMatchesTheCpu) {
  using io = curve_io<TypeParam>;
  auto g = cuzk::test::rng(23);
  const auto pool = group<typename TypeParam::curve>::random_bases(g, 16);
  std::vector<typename io::cpu_affine> p, q;
  io::affine_pairs(g, pool, 64, p, q);
  for (std::size_t i = 0; i < p.size(); ++i) {
    const auto a = io::to_device(p[i]), b = io::to_device(q[i]);
    const auto den = cuda::add_denominator(a, b);
    ASSERT_FALSE(den.is_zero()) << "pair " << i;
    const auto r = cuda::add_with_inverse(a, b, den.inverse());
    using J = typename io::cpu_jacobian;
    EXPECT_EQ(io::to_cpu(r), (J::from_affine(p[i]) + q[i]).to_affine()) << "pair " << i;
  }
}

TYPED_TEST(DeviceCurveOnHost, ConversionsKeepThePoints) {
  using io = curve_io<TypeParam>;
  using F = typename TypeParam::field;
  auto g = cuzk::test::rng(24);
  auto pts = group<typename TypeParam::curve>::random_bases(g, 8);
  pts.push_back(io::cpu_affine::identity());
  const auto dev = io::to_device(pts);
  for (std::size_t i = 0; i < pts.size(); ++i) {
    EXPECT_EQ(io::to_cpu(dev[i]), pts[i]);
    EXPECT_EQ(dev[i].is_infinity(), pts[i].infinity);
    if (!pts[i].infinity) {
      EXPECT_EQ(dev[i].x, std::bit_cast<F>(pts[i].x));  // Montgomery bytes as they are
    }
  }
  EXPECT_TRUE(io::to_cpu(io::dev_xyzz::identity()).is_identity());
  EXPECT_THROW(cuda::to_device_layout(std::span<const typename io::cpu_affine>(pts), std::span<std::byte>()),
               std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::test
