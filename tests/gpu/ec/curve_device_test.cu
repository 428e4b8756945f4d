// The device curves (G1, G2 of both curves) on the GPU against the CPU curve:
// one madd chain per thread (2^14 threads, operands hitting infinity, P + P
// and P + (-P)), XYZZ additions and doublings of pairs with the same special
// cases, and the batch-affine helper with the inversion done on the device.
#include <gtest/gtest.h>

#include <vector>

#include "curve_cases.hpp"
#include "gpu_test.hpp"

namespace cuzk::test {
namespace {

constexpr std::size_t n_chains = std::size_t(1) << 14;
constexpr std::size_t chain_length = 8;
constexpr std::size_t n_pairs = std::size_t(1) << 14;

template <class F>
__global__ void madd_chains(const cuda::affine<F>* ops, std::size_t len, std::size_t n, cuda::xyzz<F>* out) {
  const std::size_t t = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (t >= n) return;
  auto acc = cuda::xyzz<F>::identity();
  for (std::size_t k = 0; k < len; ++k) acc.add(ops[t * len + k]);
  out[t] = acc;
}

template <class F>
__global__ void add_and_dbl(const cuda::xyzz<F>* p, const cuda::xyzz<F>* q, std::size_t n, cuda::xyzz<F>* sum,
                            cuda::xyzz<F>* dbl) {
  const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  cuda::xyzz<F> a = p[i];
  dbl[i] = a.dbl();
  a.add(q[i]);
  sum[i] = a;
}

template <class F>
__global__ void affine_sums(const cuda::affine<F>* p, const cuda::affine<F>* q, std::size_t n, cuda::affine<F>* out) {
  const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  out[i] = cuda::add_with_inverse(p[i], q[i], cuda::add_denominator(p[i], q[i]).inverse());
}

template <class T>
class DeviceCurve : public ::testing::Test {};
TYPED_TEST_SUITE(DeviceCurve, curve_types, group_names);

TYPED_TEST(DeviceCurve, MixedAdditionChainsMatchTheCpu) {
  CUZK_REQUIRE_GPU();
  using io = curve_io<TypeParam>;
  auto g = cuzk::test::rng(31);
  const auto pool = group<typename TypeParam::curve>::random_bases(g, 256);
  std::vector<typename io::cpu_affine> ops;
  std::vector<typename io::cpu_xyzz> expected;
  for (std::size_t t = 0; t < n_chains; ++t) expected.push_back(io::madd_chain(g, pool, chain_length, ops));
  auto d_ops = to_device(io::to_device(ops));
  cuda::device_buffer<typename io::dev_xyzz> d_out(n_chains, "sums");
  madd_chains<<<blocks_for(n_chains), 256>>>(d_ops.data(), chain_length, n_chains, d_out.data());
  CUZK_CUDA_LAUNCHED();
  const auto got = to_host(d_out);
  std::size_t bad = 0;
  for (std::size_t t = 0; t < n_chains; ++t) bad += !(io::to_cpu(got[t]) == expected[t].to_jacobian());
  EXPECT_EQ(bad, 0u) << TypeParam::name << ": " << bad << " of " << n_chains << " chains differ";
}

TYPED_TEST(DeviceCurve, XyzzAdditionAndDoublingMatchTheCpu) {
  CUZK_REQUIRE_GPU();
  using io = curve_io<TypeParam>;
  auto g = cuzk::test::rng(32);
  const auto pool = group<typename TypeParam::curve>::random_bases(g, 256);
  std::vector<typename io::cpu_xyzz> p, q;
  io::xyzz_pairs(g, pool, n_pairs, p, q);
  std::vector<typename io::dev_xyzz> dp, dq;
  for (std::size_t i = 0; i < p.size(); ++i) {
    dp.push_back(io::to_device(p[i]));
    dq.push_back(io::to_device(q[i]));
  }
  auto d_p = to_device(dp), d_q = to_device(dq);
  cuda::device_buffer<typename io::dev_xyzz> d_sum(p.size(), "sums"), d_dbl(p.size(), "doubles");
  add_and_dbl<<<blocks_for(p.size()), 256>>>(d_p.data(), d_q.data(), p.size(), d_sum.data(), d_dbl.data());
  CUZK_CUDA_LAUNCHED();
  const auto sum = to_host(d_sum), dbl = to_host(d_dbl);
  std::size_t bad_sum = 0, bad_dbl = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    auto e = p[i];
    e += q[i];
    bad_sum += !(io::to_cpu(sum[i]) == e.to_jacobian());
    bad_dbl += !(io::to_cpu(dbl[i]) == p[i].to_jacobian().dbl());
  }
  EXPECT_EQ(bad_sum, 0u) << TypeParam::name << " add";
  EXPECT_EQ(bad_dbl, 0u) << TypeParam::name << " dbl";
}

TYPED_TEST(DeviceCurve, AffineAdditionWithInverseMatchesTheCpu) {
  CUZK_REQUIRE_GPU();
  using io = curve_io<TypeParam>;
  auto g = cuzk::test::rng(33);
  const auto pool = group<typename TypeParam::curve>::random_bases(g, 256);
  std::vector<typename io::cpu_affine> p, q;
  io::affine_pairs(g, pool, n_pairs, p, q);
  auto d_p = to_device(io::to_device(p)), d_q = to_device(io::to_device(q));
  cuda::device_buffer<typename io::dev_affine> d_out(p.size(), "sums");
  affine_sums<<<blocks_for(p.size()), 256>>>(d_p.data(), d_q.data(), p.size(), d_out.data());
  CUZK_CUDA_LAUNCHED();
  const auto got = to_host(d_out);
  std::size_t bad = 0;
  for (std::size_t i = 0; i < p.size(); ++i)
    bad += !(io::to_cpu(got[i]) == (io::cpu_jacobian::from_affine(p[i]) + q[i]).to_affine());
  EXPECT_EQ(bad, 0u) << TypeParam::name;
}

}  // namespace
}  // namespace cuzk::test
