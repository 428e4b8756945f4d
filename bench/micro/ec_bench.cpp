// G1/G2 point arithmetic, single-threaded, on random points and 255-bit scalars.
#include <benchmark/benchmark.h>

#include <random>
#include <type_traits>
#include <vector>

#include "ec/config.hpp"
#include "ec/scalar_mul.hpp"
#include "ec/serialize_zcash.hpp"
#include "ec/subgroup.hpp"

namespace {

using namespace cuzk::ec;

std::mt19937_64& rng() {
  static std::mt19937_64 g(0x5eed);
  return g;
}

scalar_limbs_t random_scalar() {
  for (;;) {
    scalar_limbs_t k{rng()(), rng()(), rng()(), rng()() >> 1};
    if (cuzk::ff::limbs::less(k, cuzk::ff::fr_params::modulus)) return k;
  }
}

template <class J>
J random_point() {
  return mul(J::generator(), random_scalar());
}

/* A small ring of inputs so the loop does not fold into a constant. */
constexpr std::size_t kRing = 64;

/* P: J (Jacobian + Jacobian) or J::affine_t (mixed addition). */
template <class J, class P = J>
void BM_Add(benchmark::State& state) {
  std::vector<P> pts;
  for (std::size_t i = 0; i < kRing; ++i) {
    if constexpr (std::is_same_v<P, J>)
      pts.push_back(random_point<J>());
    else
      pts.push_back(random_point<J>().to_affine());
  }
  J acc = random_point<J>();
  std::size_t i = 0;
  for (auto _ : state) {
    acc = acc + pts[i++ % kRing];
    benchmark::DoNotOptimize(acc);
  }
}

template <class J>
void BM_Double(benchmark::State& state) {
  J acc = random_point<J>();
  for (auto _ : state) {
    acc = acc.dbl();
    benchmark::DoNotOptimize(acc);
  }
}

template <class J>
void BM_ScalarMul(benchmark::State& state) {
  std::vector<J> pts;
  std::vector<scalar_limbs_t> ks;
  for (std::size_t i = 0; i < kRing; ++i) {
    pts.push_back(random_point<J>());
    ks.push_back(random_scalar());
  }
  std::size_t i = 0;
  for (auto _ : state) {
    J r = mul(pts[i % kRing], ks[i % kRing]);
    ++i;
    benchmark::DoNotOptimize(r);
  }
}

template <class J>
void BM_SubgroupCheck(benchmark::State& state) {
  J p = random_point<J>();
  for (auto _ : state) benchmark::DoNotOptimize(in_subgroup(p));
}

void BM_G1Decompress(benchmark::State& state) {
  auto b = zcash::encode_g1_compressed(random_point<g1_jacobian_t>().to_affine());
  for (auto _ : state) benchmark::DoNotOptimize(zcash::decode_g1_compressed(b));
}

void BM_G2Decompress(benchmark::State& state) {
  auto b = zcash::encode_g2_compressed(random_point<g2_jacobian_t>().to_affine());
  for (auto _ : state) benchmark::DoNotOptimize(zcash::decode_g2_compressed(b));
}

BENCHMARK(BM_Add<g1_jacobian_t>)->Name("G1_add_jacobian");
BENCHMARK(BM_Add<g1_jacobian_t, g1_jacobian_t::affine_t>)->Name("G1_add_mixed");
BENCHMARK(BM_Double<g1_jacobian_t>)->Name("G1_double");
BENCHMARK(BM_ScalarMul<g1_jacobian_t>)->Name("G1_scalar_mul")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SubgroupCheck<g1_jacobian_t>)->Name("G1_subgroup_check")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_G1Decompress)->Name("G1_decompress_checked")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Add<g2_jacobian_t>)->Name("G2_add_jacobian");
BENCHMARK(BM_Add<g2_jacobian_t, g2_jacobian_t::affine_t>)->Name("G2_add_mixed");
BENCHMARK(BM_Double<g2_jacobian_t>)->Name("G2_double");
BENCHMARK(BM_ScalarMul<g2_jacobian_t>)->Name("G2_scalar_mul")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_SubgroupCheck<g2_jacobian_t>)->Name("G2_subgroup_check")->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_G2Decompress)->Name("G2_decompress_checked")->Unit(benchmark::kMicrosecond);

}  // namespace
