// The device field template run on the host (label math, no GPU needed):
// the portable multiplication the host uses, and the device's own PTX
// instruction sequence under the emulated carry chain, both against cuzk::ff
// (itself tested against GMP), on the edges and random inputs: Fr, Fp and Fp2
// of BLS12-381 and BN254.
#include <gtest/gtest.h>

#include "field_cases.hpp"
#include "seed.hpp"

namespace cuzk::test {
namespace {

template <class T>
class DeviceFieldOnHost : public ::testing::Test {};
TYPED_TEST_SUITE(DeviceFieldOnHost, field_types, field_names);

template <class G, class C>
G as_gpu(const C& c) {
  return same_bytes<G>(c);
}

TYPED_TEST(DeviceFieldOnHost, DeviceMultiplicationAndSquaringMatchTheCpuAndDropNoCarry) {
  using C = typename TypeParam::cpu;
  using G = typename TypeParam::gpu;
  auto rng = cuzk::test::rng(1);
  auto [a, b] = field_pairs<C>(20000, rng);
  for (std::size_t i = 0; i < a.size(); ++i) {
    cuda::carry::emulated chain;
    const G r = G::mul(as_gpu<G>(a[i]), as_gpu<G>(b[i]), chain);
    ASSERT_FALSE(chain.lost()) << "a carry assumed zero was not, at pair " << i;
    ASSERT_EQ(r, as_gpu<G>(a[i] * b[i])) << "pair " << i;
    cuda::carry::emulated sqr_chain;
    const G s = G::sqr(as_gpu<G>(a[i]), sqr_chain);
    ASSERT_FALSE(sqr_chain.lost()) << "a carry of the squaring assumed zero was not, at " << i;
    ASSERT_EQ(s, as_gpu<G>(a[i].sqr())) << "square " << i;
  }
}

TYPED_TEST(DeviceFieldOnHost, PortableMultiplicationMatchesTheCpu) {
  using C = typename TypeParam::cpu;
  using G = typename TypeParam::gpu;
  auto rng = cuzk::test::rng(2);
  auto [a, b] = field_pairs<C>(20000, rng);
  for (std::size_t i = 0; i < a.size(); ++i) {
    ASSERT_EQ(as_gpu<G>(a[i]) * as_gpu<G>(b[i]), as_gpu<G>(a[i] * b[i])) << "pair " << i;
    ASSERT_EQ(as_gpu<G>(a[i]).sqr(), as_gpu<G>(a[i].sqr())) << "pair " << i;
  }
}

TYPED_TEST(DeviceFieldOnHost, AdditionSubtractionNegationMatchTheCpu) {
  using C = typename TypeParam::cpu;
  using G = typename TypeParam::gpu;
  auto rng = cuzk::test::rng(3);
  auto [a, b] = field_pairs<C>(20000, rng);
  for (std::size_t i = 0; i < a.size(); ++i) {
    const G x = as_gpu<G>(a[i]), y = as_gpu<G>(b[i]);
    cuda::carry::emulated chain;
    ASSERT_EQ(G::add(x, y, chain), as_gpu<G>(a[i] + b[i])) << "pair " << i;
    ASSERT_FALSE(chain.lost());
    ASSERT_EQ(x + y, as_gpu<G>(a[i] + b[i])) << "pair " << i;
    ASSERT_EQ(x - y, as_gpu<G>(a[i] - b[i])) << "pair " << i;
    ASSERT_EQ(-x, as_gpu<G>(-a[i])) << "pair " << i;
    ASSERT_EQ(x.dbl(), as_gpu<G>(a[i].dbl())) << "pair " << i;
    ASSERT_EQ(x.cneg(true), as_gpu<G>(-a[i])) << "pair " << i;
    ASSERT_EQ(x.cneg(false), x) << "pair " << i;
    ASSERT_EQ(x == y, a[i] == b[i]) << "pair " << i;
    ASSERT_EQ(x.is_zero(), a[i].is_zero()) << "pair " << i;
    ASSERT_EQ(x.is_one(), a[i].is_one()) << "pair " << i;
  }
}

TYPED_TEST(DeviceFieldOnHost, CanonicalFormRoundTripsThroughTheCpuEncoding) {
  using C = typename TypeParam::cpu;
  using G = typename TypeParam::gpu;
  auto rng = cuzk::test::rng(4);
  for (const C& a : field_inputs<C>(2000, rng)) {
    const auto canon = a.to_canonical();  // 64-bit limbs
    std::uint32_t words[G::n], back[G::n];
    for (std::size_t i = 0; i < G::n; ++i) words[i] = std::uint32_t(canon[i / 2] >> (32 * (i % 2)));
    ASSERT_EQ(G::from_canonical(words), as_gpu<G>(a));
    as_gpu<G>(a).to_canonical(back);
    for (std::size_t i = 0; i < G::n; ++i) ASSERT_EQ(back[i], words[i]);
  }
  for (std::uint32_t k : {0u, 1u, 2u, 7u, 0xffffffffu}) EXPECT_EQ(G::from_u32(k), as_gpu<G>(C::from_u64(k)));
  EXPECT_EQ(G::one(), as_gpu<G>(C::one()));
  EXPECT_TRUE(G::one().is_one());
  EXPECT_TRUE(G::zero().is_zero());
}

TYPED_TEST(DeviceFieldOnHost, InverseAndPowerMatchTheCpu) {
  using C = typename TypeParam::cpu;
  using G = typename TypeParam::gpu;
  auto rng = cuzk::test::rng(5);
  for (const C& a : field_inputs<C>(60, rng)) {
    const G x = as_gpu<G>(a);
    ASSERT_EQ(x.inverse(), as_gpu<G>(a.inverse()));  // 0 -> 0 on both
    const std::uint64_t e = rng();
    ASSERT_EQ(x.pow(e), as_gpu<G>(a.pow(e)));
    ASSERT_EQ(x.pow(std::uint64_t{0}), G::one());
  }
}

template <class C>
class DeviceFp2OnHost : public ::testing::Test {};
TYPED_TEST_SUITE(DeviceFp2OnHost, curves_under_test, curve_names);

TYPED_TEST(DeviceFp2OnHost, ArithmeticMatchesTheCpu) {
  using G = cuda::fp2<TypeParam>;
  auto rng = cuzk::test::rng(6);
  auto [a0, b0] = field_pairs<ff::fp<TypeParam>>(3000, rng);
  auto [a1, b1] = field_pairs<ff::fp<TypeParam>>(3000, rng);
  std::shuffle(a1.begin(), a1.end(), rng);
  for (std::size_t i = 0; i < a0.size(); ++i) {
    const ff::fp2<TypeParam> a{a0[i], a1[i]}, b{b0[i], b1[i]};
    const G x = same_bytes<G>(a), y = same_bytes<G>(b);
    ASSERT_EQ(x * y, same_bytes<G>(a * b)) << "pair " << i;
    ASSERT_EQ(x.sqr(), same_bytes<G>(a.sqr())) << "pair " << i;
    ASSERT_EQ(x + y, same_bytes<G>(a + b)) << "pair " << i;
    ASSERT_EQ(x - y, same_bytes<G>(a - b)) << "pair " << i;
    ASSERT_EQ(-x, same_bytes<G>(-a)) << "pair " << i;
    ASSERT_EQ(x.dbl(), same_bytes<G>(a.dbl())) << "pair " << i;
    ASSERT_EQ(x * y.c0, same_bytes<G>(a * b.c0)) << "pair " << i;
    ASSERT_EQ(x.is_zero(), a.is_zero());
    if (i % 100 == 0) {
      ASSERT_EQ(x.inverse(), same_bytes<G>(a.inverse())) << "pair " << i;
      const std::uint64_t e = rng();
      ASSERT_EQ(x.pow(e), same_bytes<G>(a.pow(ff::limbs::big<1>{e}))) << "pair " << i;
    }
  }
  EXPECT_TRUE(G::one().is_one());
  EXPECT_EQ(G::zero().inverse(), G::zero());
}

}  // namespace
}  // namespace cuzk::test
