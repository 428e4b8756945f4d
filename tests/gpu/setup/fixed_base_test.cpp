// The CUDA fixed-base engine against the CPU one (groth16/fixed_base.hpp):
// the same affine points for 0, 1, r − 1 and random scalars, in G1 and G2 of
// both curves, one chunk and many; and setup() with either engine writes the
// same .zkey.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "cuda/setup/fixed_base_engine.hpp"
#include "curves_under_test.hpp"
#include "ec/scalar_mul.hpp"
#include "gpu_test.hpp"
#include "groth16/fixed_base_engine.hpp"
#include "groth16/setup.hpp"
#include "io/zkey.hpp"
#include "seed.hpp"

namespace {

using namespace cuzk;

/* 0, 1, r − 1, 2, then uniform */
template <class C>
std::vector<ff::fr<C>> scalars(std::size_t n, std::mt19937_64& rng) {
  using fr = ff::fr<C>;
  std::vector<fr> k(n);
  const fr edge[] = {fr::zero(), fr::one(), fr::zero() - fr::one(), fr::from_u64(2)};
  for (std::size_t i = 0; i < n; ++i) k[i] = i < std::size(edge) ? edge[i] : fr::random(rng);
  std::shuffle(k.begin(), k.end(), rng);
  return k;
}

/* the same bytes, not only the same point */
template <class A, class F>
::testing::AssertionResult same(const std::vector<A>& gpu, const std::vector<A>& cpu, std::span<const F> k) {
  for (std::size_t i = 0; i < cpu.size(); ++i) {
    const bool eq = gpu[i].infinity == cpu[i].infinity &&
                    (cpu[i].infinity || (std::memcmp(&gpu[i].x, &cpu[i].x, sizeof cpu[i].x) == 0 &&
                                         std::memcmp(&gpu[i].y, &cpu[i].y, sizeof cpu[i].y) == 0));
    if (!eq)
      return ::testing::AssertionFailure()
             << "point " << i << " of " << cpu.size() << " differs (k = " << k[i].to_decimal() << ")";
  }
  return ::testing::AssertionSuccess();
}

template <class G>
typename ec::jacobian<G>::affine_t random_base(std::mt19937_64& rng) {
  return ec::mul(ec::jacobian<G>::generator(), ff::fr<typename G::curve>::random(rng)).to_affine();
}

/* CUDA (chunk of `chunk` scalars) against CPU, G1 then G2, at the generator and at a random base */
template <class C>
void compare(std::size_t n, std::size_t chunk, std::uint64_t salt) {
  using g1 = ec::g1_group<C>;
  using g2 = ec::g2_group<C>;
  auto rng = test::rng(salt);
  auto gpu = cuda::make_fixed_base_engine<C>({.device = 0, .chunk = chunk});
  groth16::basic_cpu_fixed_base_engine<C> cpu;
  const auto k = scalars<C>(n, rng);
  const std::span<const ff::fr<C>> ks(k);
  for (int base = 0; base < 2; ++base) {
    SCOPED_TRACE(base == 0 ? "generator" : "random base");
    const auto p1 = base == 0 ? g1::generator() : random_base<g1>(rng);
    std::vector<ec::g1_affine<C>> o1(n), e1(n);
    gpu->mul_many_g1(p1, k, o1);
    cpu.mul_many_g1(p1, k, e1);
    EXPECT_TRUE(same(o1, e1, ks)) << "G1";
    const auto p2 = base == 0 ? g2::generator() : random_base<g2>(rng);
    std::vector<ec::g2_affine<C>> o2(n), e2(n);
    gpu->mul_many_g2(p2, k, o2);
    cpu.mul_many_g2(p2, k, e2);
    EXPECT_TRUE(same(o2, e2, ks)) << "G2";
  }
}

template <class C>
class CudaFixedBase : public ::testing::Test {};
TYPED_TEST_SUITE(CudaFixedBase, test::curves_under_test, test::curve_names);

TYPED_TEST(CudaFixedBase, One) {
  CUZK_REQUIRE_GPU();
  compare<TypeParam>(1, std::size_t(1) << 21, 1);
}

TYPED_TEST(CudaFixedBase, Thousand) {
  CUZK_REQUIRE_GPU();
  compare<TypeParam>(1000, std::size_t(1) << 21, 2);
}

/* 2^16 + 3 in one chunk, and in 17 chunks of 4096 (the last one 3 long) */
TYPED_TEST(CudaFixedBase, TwoToSixteenPlusThree) {
  CUZK_REQUIRE_GPU();
  compare<TypeParam>((1u << 16) + 3, std::size_t(1) << 21, 3);
  compare<TypeParam>((1u << 16) + 3, 4096, 4);
}

TYPED_TEST(CudaFixedBase, EmptyAndMismatched) {
  CUZK_REQUIRE_GPU();
  using fr = ff::fr<TypeParam>;
  auto gpu = cuda::make_fixed_base_engine<TypeParam>();
  const auto g = ec::g1_group<TypeParam>::generator();
  std::vector<ec::g1_affine<TypeParam>> none;
  gpu->mul_many_g1(g, {}, none);
  std::vector<fr> k(3, fr::one());
  std::vector<ec::g1_affine<TypeParam>> two(2);
  EXPECT_THROW(gpu->mul_many_g1(g, k, two), std::invalid_argument);
}

/* A random R1CS: rows of 1..3 distinct wires with random nonzero coefficients. */
template <class C>
r1cs::basic_matrices<C> random_matrices(std::mt19937_64& rng, std::uint32_t n_constraints, std::uint32_t n_wires,
                                        std::uint32_t n_public) {
  r1cs::basic_matrices<C> m;
  m.n_wires = n_wires;
  m.n_public = n_public;
  for (r1cs::basic_sparse_rows<C>* rows : {&m.a, &m.b, &m.c}) {
    for (std::uint32_t i = 0; i < n_constraints; ++i) {
      std::vector<std::uint32_t> wires;
      const int terms = 1 + int(rng() % 3);
      for (int t = 0; t < terms; ++t) wires.push_back(std::uint32_t(rng() % n_wires));
      std::sort(wires.begin(), wires.end());
      wires.erase(std::unique(wires.begin(), wires.end()), wires.end());
      for (auto w : wires) {
        ff::fr<C> c;
        do c = ff::fr<C>::random(rng);
        while (c.is_zero());
        rows->push({w, c});
      }
      rows->end_row();
    }
  }
  return m;
}

TYPED_TEST(CudaFixedBase, SetupKeyIsByteIdentical) {
  CUZK_REQUIRE_GPU();
  using C = TypeParam;
  auto rng = test::rng(5);
  const std::uint32_t nc = 300 + std::uint32_t(rng() % 700), nw = 50 + std::uint32_t(rng() % 400);
  const auto m = random_matrices<C>(rng, nc, nw, 1 + std::uint32_t(rng() % 5));
  const auto t = groth16::basic_toxic_waste<C>::from_seed("cuda fixed-base " + std::to_string(rng()));
  auto gpu = cuda::make_fixed_base_engine<C>({.device = 0, .chunk = 256});
  for (auto h : {groth16::h_form::odd_coset, groth16::h_form::coefficient}) {
    SCOPED_TRACE(h == groth16::h_form::odd_coset ? "odd coset" : "coefficient");
    const auto cpu_key = io::write_zkey(groth16::setup(m, t, h));
    const auto gpu_key = io::write_zkey(groth16::setup(m, t, h, {}, gpu.get()));
    ASSERT_EQ(cpu_key.size(), gpu_key.size());
    EXPECT_TRUE(cpu_key == gpu_key) << nc << " constraints, " << nw << " wires";
  }
  EXPECT_GT(gpu->seconds(), 0);
}

}  // namespace
