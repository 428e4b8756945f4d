// Device field multiplications per second: every thread runs a long dependent
// chain x <- x y (so the figure is the multiplier's, not memory's), timed with
// CUDA events; items/s counts multiplications. ff/CURVE/FIELD_OP for the
// fields of both curves.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <vector>

#include "cuda/ff/fp.cuh"
#include "cuda/ff/fp2.cuh"
#include "cuda/ff/fr.cuh"
#include "cuda/memory.hpp"

namespace {

using namespace cuzk::cuda;

constexpr std::size_t threads = std::size_t(1) << 20;
constexpr int chain = 1024;

enum class kind { mul, sqr };

template <class F, kind K>
__global__ void mul_chain(F* x, const F* y) {
  const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  F a = x[i];
  const F b = y[i];
#pragma unroll 4
  for (int k = 0; k < chain; ++k) a = K == kind::mul ? a * b : a.sqr();
  x[i] = a;
}

/* random elements below m: random limbs with the top word cleared, reduced once by a multiplication */
template <class F>
std::vector<F> random_elements(std::size_t n) {
  std::vector<F> v(n);
  if constexpr (requires { typename F::base_t; }) {  // Fp2
    auto a = random_elements<typename F::base_t>(2 * n);
    for (std::size_t i = 0; i < n; ++i) v[i] = {a[2 * i], a[2 * i + 1]};
  } else {
    std::mt19937 g(1);
    for (auto& e : v) {
      std::uint32_t c[F::n];
      for (auto& w : c) w = g();
      c[F::n - 1] = 0;
      e = F::from_canonical(c);
    }
  }
  return v;
}

template <class F, kind K>
void BM_chain(benchmark::State& state) {
  const auto host = random_elements<F>(threads);
  device_buffer<F> x(threads, "bench x"), y(threads, "bench y");
  x.upload(host);
  y.upload(host);
  event start, stop;
  for (auto _ : state) {
    start.record();
    mul_chain<F, K><<<unsigned(threads / 256), 256>>>(x.data(), y.data());
    CUZK_CUDA_LAUNCHED();
    stop.record();
    stop.sync();
    state.SetIterationTime(event::ms(start, stop) / 1e3);
  }
  state.SetItemsProcessed(state.iterations() * std::int64_t(threads) * chain);
}

using bls = cuzk::curves::bls12_381;
using bn = cuzk::curves::bn254;
BENCHMARK(BM_chain<fp<bls>, kind::mul>)->Name("ff/bls12_381/fp_mul")->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_chain<fp<bls>, kind::sqr>)->Name("ff/bls12_381/fp_sqr")->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_chain<fr<bls>, kind::mul>)->Name("ff/bls12_381/fr_mul")->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_chain<fr<bls>, kind::sqr>)->Name("ff/bls12_381/fr_sqr")->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_chain<fp2<bls>, kind::mul>)->Name("ff/bls12_381/fp2_mul")->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_chain<fp<bn>, kind::mul>)->Name("ff/bn254/fp_mul")->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_chain<fp<bn>, kind::sqr>)->Name("ff/bn254/fp_sqr")->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_chain<fr<bn>, kind::mul>)->Name("ff/bn254/fr_mul")->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_chain<fr<bn>, kind::sqr>)->Name("ff/bn254/fr_sqr")->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_chain<fp2<bn>, kind::mul>)->Name("ff/bn254/fp2_mul")->UseManualTime()->Unit(benchmark::kMillisecond);

}  // namespace
