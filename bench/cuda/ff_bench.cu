// Device field multiplications per second: every thread runs a long dependent
// chain x <- x y (so the figure is the multiplier's, not memory's), timed with
// CUDA events; items/s counts multiplications.
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
  std::mt19937 g(1);
  std::vector<F> v(n);
  for (auto& e : v) {
    std::uint32_t c[F::n];
    for (auto& w : c) w = g();
    c[F::n - 1] = 0;
    e = F::from_canonical(c);
  }
  return v;
}
template <>
std::vector<fp2_t> random_elements<fp2_t>(std::size_t n) {
  auto a = random_elements<fp_t>(2 * n);
  std::vector<fp2_t> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = {a[2 * i], a[2 * i + 1]};
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

BENCHMARK(BM_chain<fp_t, kind::mul>)->Name("ff/fp_mul")->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_chain<fp_t, kind::sqr>)->Name("ff/fp_sqr")->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_chain<fr_t, kind::mul>)->Name("ff/fr_mul")->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_chain<fr_t, kind::sqr>)->Name("ff/fr_sqr")->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_chain<fp2_t, kind::mul>)->Name("ff/fp2_mul")->UseManualTime()->Unit(benchmark::kMillisecond);

}  // namespace
