// The device fields of both curves on the GPU, bit for bit against cuzk::ff on 2^16 inputs
// (the edges against each other, then random).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "field_cases.hpp"
#include "gpu_test.hpp"
#include "seed.hpp"

namespace cuzk::test {
namespace {

enum class op : int { mul, sqr, add, sub, neg, dbl, inverse, pow, mul_chain, canonical };

constexpr std::size_t n_inputs = std::size_t(1) << 16;
constexpr int chain_length = 64;

template <class G>
__global__ void apply(op o, G* out, const G* a, const G* b, std::uint64_t e, std::size_t n) {
  const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  const G x = a[i], y = b[i];
  switch (o) {
    case op::mul:
      out[i] = x * y;
      break;
    case op::sqr:
      out[i] = x.sqr();
      break;
    case op::add:
      out[i] = x + y;
      break;
    case op::sub:
      out[i] = x - y;
      break;
    case op::neg:
      out[i] = -x;
      break;
    case op::dbl:
      out[i] = x.dbl();
      break;
    case op::inverse:
      out[i] = x.inverse();
      break;
    case op::pow:
      out[i] = x.pow(e);
      break;
    case op::mul_chain: {
      G r = x;
      for (int k = 0; k < chain_length; ++k) r = r * y + x;
      out[i] = r;
      break;
    }
    case op::canonical: {  // to canonical and back, each through its own multiplication
      if constexpr (requires { G::n; }) {
        std::uint32_t c[G::n];
        x.to_canonical(c);
        out[i] = G::from_canonical(c);
      }
      break;
    }
  }
}

/* out = o(a, b) on the device, as CPU elements */
template <class G, class C>
std::vector<C> on_device(op o, const std::vector<C>& a, const std::vector<C>& b, std::uint64_t e = 0) {
  auto da = to_device(a), db = to_device(b);
  cuda::device_buffer<C> out(a.size(), "test output");
  apply<G><<<blocks_for(a.size()), 256>>>(o, as_device_type<G>(out), as_device_type<G>(da), as_device_type<G>(db), e,
                                          a.size());
  CUZK_CUDA_LAUNCHED();
  return to_host(out);
}

template <class C, class F>
void expect_all(const std::vector<C>& got, const std::vector<C>& a, const std::vector<C>& b, F cpu, const char* what) {
  ASSERT_EQ(got.size(), a.size());
  std::size_t bad = 0, first = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!(got[i] == cpu(a[i], b[i])) && bad++ == 0) first = i;
  EXPECT_EQ(bad, 0u) << what << ": " << bad << " of " << a.size() << " differ, the first at " << first;
}

template <class T>
class DeviceField : public ::testing::Test {};
TYPED_TEST_SUITE(DeviceField, field_types, field_names);

TYPED_TEST(DeviceField, ArithmeticMatchesTheCpuBitForBit) {
  CUZK_REQUIRE_GPU();
  using C = typename TypeParam::cpu;
  using G = typename TypeParam::gpu;
  auto rng = cuzk::test::rng(11);
  auto [a, b] = field_pairs<C>(n_inputs, rng);
  expect_all(
      on_device<G>(op::mul, a, b), a, b, [](const C& x, const C& y) { return x * y; }, "mul");
  expect_all(
      on_device<G>(op::sqr, a, b), a, b, [](const C& x, const C&) { return x.sqr(); }, "sqr");
  expect_all(
      on_device<G>(op::add, a, b), a, b, [](const C& x, const C& y) { return x + y; }, "add");
  expect_all(
      on_device<G>(op::sub, a, b), a, b, [](const C& x, const C& y) { return x - y; }, "sub");
  expect_all(
      on_device<G>(op::neg, a, b), a, b, [](const C& x, const C&) { return -x; }, "neg");
  expect_all(
      on_device<G>(op::dbl, a, b), a, b, [](const C& x, const C&) { return x.dbl(); }, "dbl");
  expect_all(
      on_device<G>(op::canonical, a, b), a, b, [](const C& x, const C&) { return x; }, "canonical");
  expect_all(
      on_device<G>(op::mul_chain, a, b), a, b,
      [](const C& x, const C& y) {
        C r = x;
        for (int k = 0; k < chain_length; ++k) r = r * y + x;
        return r;
      },
      "mul chain");
}

TYPED_TEST(DeviceField, InverseAndPowerMatchTheCpu) {
  CUZK_REQUIRE_GPU();
  using C = typename TypeParam::cpu;
  using G = typename TypeParam::gpu;
  auto rng = cuzk::test::rng(12);
  auto a = field_inputs<C>(n_inputs, rng);
  const std::uint64_t e = rng();
  expect_all(
      on_device<G>(op::inverse, a, a), a, a, [](const C& x, const C&) { return x.inverse(); }, "inverse");
  expect_all(
      on_device<G>(op::pow, a, a, e), a, a, [e](const C& x, const C&) { return x.pow(e); }, "pow");
}

template <class C>
class DeviceFp2 : public ::testing::Test {};
TYPED_TEST_SUITE(DeviceFp2, curves_under_test, curve_names);

TYPED_TEST(DeviceFp2, ArithmeticMatchesTheCpuBitForBit) {
  CUZK_REQUIRE_GPU();
  using C = ff::fp2<TypeParam>;
  using G = cuda::fp2<TypeParam>;
  auto rng = cuzk::test::rng(13);
  auto [a0, b0] = field_pairs<ff::fp<TypeParam>>(n_inputs, rng);
  auto [a1, b1] = field_pairs<ff::fp<TypeParam>>(n_inputs, rng);
  std::shuffle(a1.begin(), a1.end(), rng);
  std::vector<C> a, b;
  for (std::size_t i = 0; i < a0.size(); ++i) {
    a.push_back({a0[i], a1[i]});
    b.push_back({b0[i], b1[i]});
  }
  const std::uint64_t e = rng();
  expect_all(
      on_device<G>(op::mul, a, b), a, b, [](const C& x, const C& y) { return x * y; }, "mul");
  expect_all(
      on_device<G>(op::sqr, a, b), a, b, [](const C& x, const C&) { return x.sqr(); }, "sqr");
  expect_all(
      on_device<G>(op::add, a, b), a, b, [](const C& x, const C& y) { return x + y; }, "add");
  expect_all(
      on_device<G>(op::sub, a, b), a, b, [](const C& x, const C& y) { return x - y; }, "sub");
  expect_all(
      on_device<G>(op::neg, a, b), a, b, [](const C& x, const C&) { return -x; }, "neg");
  expect_all(
      on_device<G>(op::inverse, a, b), a, b, [](const C& x, const C&) { return x.inverse(); }, "inverse");
  expect_all(
      on_device<G>(op::pow, a, b, e), a, b, [e](const C& x, const C&) { return x.pow(ff::limbs::big<1>{e}); }, "pow");
}

}  // namespace
}  // namespace cuzk::test
