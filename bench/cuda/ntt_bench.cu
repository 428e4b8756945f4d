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
#include "random_fill.cuh"

namespace {

using namespace cuzk;
using bench::randomize;

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
    ->Name("BM_ntt_forward_bls12_381")
    ->Arg(20)
    ->Arg(24)
    ->Arg(26)
    ->Arg(27)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ntt_forward<curves::bn254>)
    ->Name("BM_ntt_forward_bn254")
    ->Arg(20)
    ->Arg(24)
    ->Arg(26)
    ->Arg(28)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

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
    ->Name("BM_compute_h_odd_coset_bls12_381")
    ->Arg(20)
    ->Arg(24)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_compute_h<curves::bls12_381, poly::h_convention::coefficients>)
    ->Name("BM_compute_h_coefficients_bls12_381")
    ->Arg(20)
    ->Arg(24)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_compute_h<curves::bn254, poly::h_convention::odd_coset>)
    ->Name("BM_compute_h_odd_coset_bn254")
    ->Arg(20)
    ->Arg(24)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_compute_h<curves::bn254, poly::h_convention::coefficients>)
    ->Name("BM_compute_h_coefficients_bn254")
    ->Arg(20)
    ->Arg(24)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
