// cuda::ntt on device-resident random data, over the Fr of each curve: one
// forward NTT (natural in, bit-reversed out; BM_ntt_forward_CURVE/<log n>)
// and compute_h in both conventions (BM_compute_h_CONVENTION_CURVE/<log n>),
// timed with CUDA events (manual time, milliseconds per call). Twiddle and
// factor tables are built by an untimed first call.
#include <benchmark/benchmark.h>

#include <cstdint>

#include "cuda/error.hpp"
#include "cuda/memory.hpp"
#include "cuda/ntt/ntt.hpp"
#include "poly/domain.hpp"

namespace {

using namespace cuzk;

/* splitmix64 of (seed, word index); the top word masked below r's top bit
   (2^62 on BLS12-381, 2^61 on BN254) keeps each value < r, so the raw words
   are a valid Montgomery form */
__global__ void fill_random(std::uint64_t* d, std::size_t words, std::uint64_t seed, std::uint64_t top_mask) {
  const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= words) return;
  std::uint64_t z = seed + (i + 1) * 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  if (i % 4 == 3) z &= top_mask;
  d[i] = z;
}

template <class F>
void randomize(cuda::device_buffer<F>& b, std::uint64_t seed, cudaStream_t s) {
  const std::size_t words = b.size() * 4;
  const std::uint64_t top_mask = (std::uint64_t(1) << (F::params::bits - 1 - 192)) - 1;
  fill_random<<<unsigned((words + 255) / 256), 256, 0, s>>>(reinterpret_cast<std::uint64_t*>(b.data()), words, seed,
                                                            top_mask);
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

template <class C>
void BM_ntt_forward(benchmark::State& state) {
  const unsigned log_n = unsigned(state.range(0));
  cuda::stream s;
  cuda::device_buffer<ff::fr<C>> d(std::size_t{1} << log_n, "bench data");
  randomize(d, 1, s);
  timed(state, s, [&](cudaStream_t st) {
    cuda::ntt::forward<C>(d.data(), log_n, poly::root_family::bellman, cuda::ntt::order::natural,
                          cuda::ntt::order::bit_reversed, st);
  });
  state.counters["elements"] = double(d.size());
}
BENCHMARK(BM_ntt_forward<curves::bls12_381>)
    ->Name("BM_ntt_forward_bls12_381")->Arg(20)->Arg(24)->Arg(26)->Arg(27)
    ->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ntt_forward<curves::bn254>)
    ->Name("BM_ntt_forward_bn254")->Arg(20)->Arg(24)->Arg(26)->Arg(28)
    ->UseManualTime()->Unit(benchmark::kMillisecond);

template <class Curve, poly::h_convention C>
void BM_compute_h(benchmark::State& state) {
  using fr = ff::fr<Curve>;
  using domain = poly::basic_domain<Curve>;
  const unsigned log_n = unsigned(state.range(0));
  const std::size_t n = std::size_t{1} << log_n;
  const auto family = C == poly::h_convention::odd_coset ? poly::root_family::snarkjs : poly::root_family::bellman;
  const domain dom(log_n, family);
  const fr shift = C == poly::h_convention::odd_coset ? dom.odd_coset_shift() : domain::coset_generator();
  const cuda::ntt::basic_h_params<Curve> p{C, log_n, family, shift, dom.vanishing_on_coset(shift).inverse()};
  cuda::stream s;
  cuda::device_buffer<fr> a(n, "a"), b(n, "b"), c(n, "c"), scratch(2 * n, "scratch");
  cuda::device_buffer<ec::scalar_limbs_t> out(n, "h");
  randomize(a, 2, s);
  randomize(b, 3, s);
  randomize(c, 4, s);
  timed(state, s, [&](cudaStream_t st) {
    cuda::ntt::compute_h(a.data(), b.data(), c.data(), out.data(), scratch.data(), p, st);
  });
}
BENCHMARK(BM_compute_h<curves::bls12_381, poly::h_convention::odd_coset>)
    ->Name("BM_compute_h_odd_coset_bls12_381")->Arg(20)->Arg(24)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_compute_h<curves::bls12_381, poly::h_convention::coefficients>)
    ->Name("BM_compute_h_coefficients_bls12_381")->Arg(20)->Arg(24)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_compute_h<curves::bn254, poly::h_convention::odd_coset>)
    ->Name("BM_compute_h_odd_coset_bn254")->Arg(20)->Arg(24)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_compute_h<curves::bn254, poly::h_convention::coefficients>)
    ->Name("BM_compute_h_coefficients_bn254")->Arg(20)->Arg(24)->UseManualTime()->Unit(benchmark::kMillisecond);

}  // namespace
