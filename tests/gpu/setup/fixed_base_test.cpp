// The CUDA fixed-base engine against the CPU one (groth16/fixed_base.hpp):
// the same affine points for 0, 1, r − 1 and random scalars, in G1 and G2,
// one chunk and many; and setup() with either engine writes the same .zkey.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "cuda/setup/fixed_base_engine.hpp"
#include "ec/scalar_mul.hpp"
#include "gpu_test.hpp"
#include "groth16/fixed_base_engine.hpp"
#include "groth16/setup.hpp"
#include "io/zkey.hpp"
#include "seed.hpp"

namespace {

using namespace cuzk;
using ec::fr_t;

/* 0, 1, r − 1, 2, then uniform */
std::vector<fr_t> scalars(std::size_t n, std::mt19937_64& rng) {
  std::vector<fr_t> k(n);
  const fr_t edge[] = {fr_t::zero(), fr_t::one(), fr_t::zero() - fr_t::one(), fr_t::from_u64(2)};
  for (std::size_t i = 0; i < n; ++i) k[i] = i < std::size(edge) ? edge[i] : fr_t::random(rng);
  std::shuffle(k.begin(), k.end(), rng);
  return k;
}

/* the same bytes, not only the same point */
template <class A>
::testing::AssertionResult same(const std::vector<A>& gpu, const std::vector<A>& cpu, std::span<const fr_t> k) {
  for (std::size_t i = 0; i < cpu.size(); ++i) {
    const bool eq = gpu[i].infinity == cpu[i].infinity &&
                    (cpu[i].infinity || (std::memcmp(&gpu[i].x, &cpu[i].x, sizeof cpu[i].x) == 0 &&
                                         std::memcmp(&gpu[i].y, &cpu[i].y, sizeof cpu[i].y) == 0));
    if (!eq)
      return ::testing::AssertionFailure() << "point " << i << " of " << cpu.size() << " differs (k = "
                                           << k[i].to_decimal() << ")";
  }
  return ::testing::AssertionSuccess();
}

template <class C>
typename ec::jacobian<C>::affine_t random_base(std::mt19937_64& rng) {
  return ec::mul(ec::jacobian<C>::generator(), fr_t::random(rng)).to_affine();
}

/* CUDA (chunk of `chunk` scalars) against CPU, G1 then G2, at the generator and at a random base */
void compare(std::size_t n, std::size_t chunk, std::uint64_t salt) {
  auto rng = test::rng(salt);
  auto gpu = cuda::make_fixed_base_engine({.device = 0, .chunk = chunk});
  groth16::cpu_fixed_base_engine cpu;
  const auto k = scalars(n, rng);
  for (int base = 0; base < 2; ++base) {
    SCOPED_TRACE(base == 0 ? "generator" : "random base");
    const auto g1 = base == 0 ? ec::g1_curve::generator() : random_base<ec::g1_curve>(rng);
    std::vector<ec::g1_affine_t> o1(n), e1(n);
    gpu->mul_many_g1(g1, k, o1);
    cpu.mul_many_g1(g1, k, e1);
    EXPECT_TRUE(same(o1, e1, k)) << "G1";
    const auto g2 = base == 0 ? ec::g2_curve::generator() : random_base<ec::g2_curve>(rng);
    std::vector<ec::g2_affine_t> o2(n), e2(n);
    gpu->mul_many_g2(g2, k, o2);
    cpu.mul_many_g2(g2, k, e2);
    EXPECT_TRUE(same(o2, e2, k)) << "G2";
  }
}

TEST(CudaFixedBase, One) {
  CUZK_REQUIRE_GPU();
  compare(1, std::size_t(1) << 21, 1);
}

TEST(CudaFixedBase, Thousand) {
  CUZK_REQUIRE_GPU();
  compare(1000, std::size_t(1) << 21, 2);
}

/* 2^16 + 3 in one chunk, and in 17 chunks of 4096 (the last one 3 long) */
TEST(CudaFixedBase, TwoToSixteenPlusThree) {
  CUZK_REQUIRE_GPU();
  compare((1u << 16) + 3, std::size_t(1) << 21, 3);
  compare((1u << 16) + 3, 4096, 4);
}

TEST(CudaFixedBase, EmptyAndMismatched) {
  CUZK_REQUIRE_GPU();
  auto gpu = cuda::make_fixed_base_engine();
  std::vector<ec::g1_affine_t> none;
  gpu->mul_many_g1(ec::g1_curve::generator(), {}, none);
  std::vector<fr_t> k(3, fr_t::one());
  std::vector<ec::g1_affine_t> two(2);
  EXPECT_THROW(gpu->mul_many_g1(ec::g1_curve::generator(), k, two), std::invalid_argument);
}

/* A random R1CS: rows of 1..3 distinct wires with random nonzero coefficients. */
r1cs::matrices random_matrices(std::mt19937_64& rng, std::uint32_t n_constraints, std::uint32_t n_wires,
                               std::uint32_t n_public) {
  r1cs::matrices m;
  m.n_wires = n_wires;
  m.n_public = n_public;
  for (r1cs::sparse_rows* rows : {&m.a, &m.b, &m.c}) {
    for (std::uint32_t i = 0; i < n_constraints; ++i) {
      std::vector<std::uint32_t> wires;
      const int terms = 1 + int(rng() % 3);
      for (int t = 0; t < terms; ++t) wires.push_back(std::uint32_t(rng() % n_wires));
      std::sort(wires.begin(), wires.end());
      wires.erase(std::unique(wires.begin(), wires.end()), wires.end());
      for (auto w : wires) {
        fr_t c;
        do c = fr_t::random(rng);
        while (c.is_zero());
        rows->push({w, c});
      }
      rows->end_row();
    }
  }
  return m;
}

TEST(CudaFixedBase, SetupKeyIsByteIdentical) {
  CUZK_REQUIRE_GPU();
  auto rng = test::rng(5);
  const std::uint32_t nc = 300 + std::uint32_t(rng() % 700), nw = 50 + std::uint32_t(rng() % 400);
  const auto m = random_matrices(rng, nc, nw, 1 + std::uint32_t(rng() % 5));
  const auto t = groth16::toxic_waste::from_seed("cuda fixed-base " + std::to_string(rng()));
  auto gpu = cuda::make_fixed_base_engine({.device = 0, .chunk = 256});
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
