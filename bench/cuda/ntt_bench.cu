// cuda::ntt on device-resident random data: one forward NTT (natural in,
// bit-reversed out) and compute_h in both conventions, timed with CUDA events
// (manual time, milliseconds per call). Twiddle and factor tables are built by
// an untimed first call.
#include <benchmark/benchmark.h>

#include <cstdint>

#include "cuda/error.hpp"
#include "cuda/memory.hpp"
#include "cuda/ntt/ntt.hpp"
#include "poly/domain.hpp"

namespace {

using namespace cuzk;

/* splitmix64 of (seed, word index); the top word below 2^30 keeps each value < r,
   so the raw words are a valid Montgomery form */
__global__ void fill_random(std::uint64_t* d, std::size_t words, std::uint64_t seed) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= words) return;
  std::uint64_t z = seed + (i + 1) * 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  if (i % 4 == 3) z &= 0x3fffffffffffffffull;
  d[i] = z;
}

void randomize(cuda::device_buffer<ff::fr_t>& b, std::uint64_t seed, cudaStream_t s) {
  const std::size_t words = b.size() * 4;
  fill_random<<<unsigned((words + 255) / 256), 256, 0, s>>>(reinterpret_cast<std::uint64_t*>(b.data()), words, seed);
  CUZK_CUDA_LAUNCHED();
}

/* times fn(stream) per iteration with CUDA events */
template <class Fn>
void timed(benchmark::State& state, cudaStream_t s, Fn&& fn) {
  fn(s);  // untimed: tables
  CUZK_CUDA_OK(cudaStreamSynchronize(s));
  cuda::event start, stop;
  for (auto _ : state) {
    start.record(s);
    fn(s);
    stop.record(s);
    stop.sync();
    state.SetIterationTime(cuda::event::ms(start, stop) / 1e3);
  }
}

void BM_ntt_forward(benchmark::State& state) {
  const unsigned log_n = unsigned(state.range(0));
  cuda::stream s;
  cuda::device_buffer<ff::fr_t> d(std::size_t{1} << log_n, "bench data");
  randomize(d, 1, s);
  timed(state, s, [&](cudaStream_t st) {
    cuda::ntt::forward(d.data(), log_n, poly::root_family::bellman, cuda::ntt::order::natural,
                       cuda::ntt::order::bit_reversed, st);
  });
  state.counters["elements"] = double(d.size());
}
BENCHMARK(BM_ntt_forward)->Arg(20)->Arg(24)->Arg(26)->Arg(27)->UseManualTime()->Unit(benchmark::kMillisecond);

template <poly::h_convention C>
void BM_compute_h(benchmark::State& state) {
  const unsigned log_n = unsigned(state.range(0));
  const std::size_t n = std::size_t{1} << log_n;
  const auto family = C == poly::h_convention::odd_coset ? poly::root_family::snarkjs : poly::root_family::bellman;
  const poly::domain dom(log_n, family);
  const ff::fr_t shift = C == poly::h_convention::odd_coset ? dom.odd_coset_shift() : poly::domain::coset_generator();
  const cuda::ntt::h_params p{C, log_n, family, shift, dom.vanishing_on_coset(shift).inverse()};
  cuda::stream s;
  cuda::device_buffer<ff::fr_t> a(n, "a"), b(n, "b"), c(n, "c"), scratch(2 * n, "scratch");
  cuda::device_buffer<ec::scalar_limbs_t> out(n, "h");
  randomize(a, 2, s);
  randomize(b, 3, s);
  randomize(c, 4, s);
  timed(state, s, [&](cudaStream_t st) {
    cuda::ntt::compute_h(a.data(), b.data(), c.data(), out.data(), scratch.data(), p, st);
  });
}
BENCHMARK(BM_compute_h<poly::h_convention::odd_coset>)
    ->Name("BM_compute_h_odd_coset")
    ->Arg(20)
    ->Arg(24)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_compute_h<poly::h_convention::coefficients>)
    ->Name("BM_compute_h_coefficients")
    ->Arg(20)
    ->Arg(24)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
