// Fp and Fr arithmetic, one operation per iteration, each result feeding the
// next so that nothing can be hoisted out of the loop.
#include <benchmark/benchmark.h>

#include <random>
#include <type_traits>

#include "ff/fp.hpp"
#include "ff/fp2.hpp"
#include "ff/fr.hpp"
#include "ff/ifma.hpp"
#include "curves/bn254.hpp"

namespace {

using cuzk::ff::fp2_t;
using cuzk::ff::fp_t;
using cuzk::ff::fr_t;
using bn_fp_t = cuzk::ff::fp<cuzk::curves::bn254>;
using bn_fr_t = cuzk::ff::fr<cuzk::curves::bn254>;
using bn_fp2_t = cuzk::ff::fp2<cuzk::curves::bn254>;

template <class F>
F random_element(std::mt19937_64& g) {
  if constexpr (requires { typename F::base_t; }) {  // Fp2
    using B = typename F::base_t;
    return {random_element<B>(g), random_element<B>(g)};
  } else {
    typename F::limbs_t l;
    for (auto& w : l) w = g();
    l.back() >>= 64 - (F::bits - 64 * (F::n_limbs - 1)) + 1;  // below 2^(bits-1) < m
    return F::from_canonical_unchecked(l);
  }
}

/* One operation an iteration on a and b, the result the next a. */
template <class F, class Op>
void chain(benchmark::State& state, std::uint64_t seed, Op op) {
  std::mt19937_64 g(seed);
  F a = random_element<F>(g), b = random_element<F>(g);
  for (auto _ : state) {
    a = op(a, b);
    benchmark::DoNotOptimize(a);
  }
}

template <class F>
void BM_mul(benchmark::State& s) {
  chain<F>(s, 1, [](const F& a, const F& b) { return a * b; });
}
template <class F>
void BM_sqr(benchmark::State& s) {
  chain<F>(s, 2, [](const F& a, const F&) { return a.sqr(); });
}
template <class F>
void BM_add(benchmark::State& s) {
  chain<F>(s, 3, [](const F& a, const F& b) { return a + b; });
}
template <class F>
void BM_inverse(benchmark::State& s) {  // + 1 keeps the chain away from a fixed point
  chain<F>(s, 4, [one = F::one()](const F& a, const F&) { return a.inverse() + one; });
}
template <class F>
void BM_sqrt(benchmark::State& s) {
  chain<F>(s, 5, [](const F& a, const F&) { return *a.sqr().sqrt() + F::one(); });
}

/* Throughput: 8 independent chains an iteration (items: multiplications), as an NTT's butterflies or a batch
   of bucket additions give the CPU; the latency benchmarks above give it one chain. Run with CUZK_FF_PLAIN=1
   for the portable path (ff/x86_mont.hpp). */
template <class F>
void BM_mul_throughput(benchmark::State& state) {
  std::mt19937_64 g(6);
  F a[8], b = random_element<F>(g);
  for (auto& x : a) x = random_element<F>(g);
  for (auto _ : state) {
    for (auto& x : a) x = x * b;
    benchmark::DoNotOptimize(a);
  }
  state.SetItemsProcessed(8 * state.iterations());
}

/* The same eight-by-eight throughput in IFMA lanes (ff/ifma.hpp): 8 vectors of 8 elements an iteration (items:
   multiplications); skipped where the CPU lacks IFMA. */
#if CUZK_FF_IFMA
template <class F>
CUZK_IFMA_TARGET void lanes_mul_loop(benchmark::State& state) {
  using P = typename F::params;
  std::mt19937_64 g(7);
  cuzk::ff::ifma::lanes<P> m;
  for (unsigned i = 0; i < 8; ++i) m.set(i, random_element<F>(g));
  const auto b = cuzk::ff::ifma::load(m);
  cuzk::ff::ifma::vec<P> a[8];
  for (unsigned k = 0; k < 8; ++k) {
    for (unsigned i = 0; i < 8; ++i) m.set(i, random_element<F>(g));
    a[k] = cuzk::ff::ifma::load(m);
  }
  for (auto _ : state) {
    for (auto& x : a) x = cuzk::ff::ifma::mul(x, b);
    benchmark::DoNotOptimize(a);
  }
  state.SetItemsProcessed(64 * state.iterations());
}
#endif
template <class F>
void BM_lanes_mul_throughput(benchmark::State& state) {
#if CUZK_FF_IFMA
  if (cuzk::ff::ifma::detect()) return lanes_mul_loop<F>(state);
#endif
  state.SkipWithError("no AVX-512 IFMA on this CPU");
}

void BM_fp_mul(benchmark::State& s) { BM_mul<fp_t>(s); }
void BM_fp_sqr(benchmark::State& s) { BM_sqr<fp_t>(s); }
void BM_fp_add(benchmark::State& s) { BM_add<fp_t>(s); }
void BM_fp_inverse(benchmark::State& s) { BM_inverse<fp_t>(s); }
void BM_fp_sqrt(benchmark::State& s) { BM_sqrt<fp_t>(s); }
void BM_fr_mul(benchmark::State& s) { BM_mul<fr_t>(s); }
void BM_fr_sqr(benchmark::State& s) { BM_sqr<fr_t>(s); }
void BM_fr_add(benchmark::State& s) { BM_add<fr_t>(s); }
void BM_fr_inverse(benchmark::State& s) { BM_inverse<fr_t>(s); }
void BM_fp2_mul(benchmark::State& s) { BM_mul<fp2_t>(s); }
void BM_fp2_sqr(benchmark::State& s) { BM_sqr<fp2_t>(s); }
/* BN254: 4-limb Fp */
void BM_bn254_fp_mul(benchmark::State& s) { BM_mul<bn_fp_t>(s); }
void BM_bn254_fp_sqr(benchmark::State& s) { BM_sqr<bn_fp_t>(s); }
void BM_bn254_fp_inverse(benchmark::State& s) { BM_inverse<bn_fp_t>(s); }
void BM_bn254_fr_mul(benchmark::State& s) { BM_mul<bn_fr_t>(s); }
void BM_bn254_fp2_mul(benchmark::State& s) { BM_mul<bn_fp2_t>(s); }
void BM_bn254_fr_mul_throughput(benchmark::State& s) { BM_mul_throughput<bn_fr_t>(s); }
void BM_bn254_fp_mul_throughput(benchmark::State& s) { BM_mul_throughput<bn_fp_t>(s); }
void BM_fr_mul_throughput(benchmark::State& s) { BM_mul_throughput<fr_t>(s); }
void BM_fp_mul_throughput(benchmark::State& s) { BM_mul_throughput<fp_t>(s); }
void BM_bn254_fp_lanes_mul_throughput(benchmark::State& s) { BM_lanes_mul_throughput<bn_fp_t>(s); }
void BM_fp_lanes_mul_throughput(benchmark::State& s) { BM_lanes_mul_throughput<fp_t>(s); }

BENCHMARK(BM_fp_mul);
BENCHMARK(BM_fp_sqr);
BENCHMARK(BM_fp_add);
BENCHMARK(BM_fp_inverse);
BENCHMARK(BM_fp_sqrt);
BENCHMARK(BM_fr_mul);
BENCHMARK(BM_fr_sqr);
BENCHMARK(BM_fr_add);
BENCHMARK(BM_fr_inverse);
BENCHMARK(BM_fp2_mul);
BENCHMARK(BM_fp2_sqr);
BENCHMARK(BM_bn254_fp_mul);
BENCHMARK(BM_bn254_fp_sqr);
BENCHMARK(BM_bn254_fp_inverse);
BENCHMARK(BM_bn254_fr_mul);
BENCHMARK(BM_bn254_fp2_mul);
BENCHMARK(BM_bn254_fr_mul_throughput);
BENCHMARK(BM_bn254_fp_mul_throughput);
BENCHMARK(BM_fr_mul_throughput);
BENCHMARK(BM_fp_mul_throughput);
BENCHMARK(BM_bn254_fp_lanes_mul_throughput);
BENCHMARK(BM_fp_lanes_mul_throughput);

}  // namespace
