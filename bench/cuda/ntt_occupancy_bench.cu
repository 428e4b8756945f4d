// The NTT pass kernel at 1, 2 and 3 blocks of 256 threads per SM (255, 128
// and 80 registers a thread; the default is kernels.cuh's
// default_blocks_per_sm), over BLS12-381's Fr on device-resident data:
//   BM_ntt_occupancy/<log n>/<blocks>:  one forward NTT, natural to bit-reversed
//   BM_to_coset_occupancy/<log n>/<blocks>:  one input's chain of compute_h
//     (iNTT, n^-1 g^j, coset NTT; its row passes fused)
// CUDA events, milliseconds per call; tables built by an untimed first call.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "cuda/error.hpp"
#include "cuda/memory.hpp"
#include "cuda/ntt/device_powers.hpp"
#include "cuda/ntt/kernels.cuh"
#include "cuda/ntt/ntt.hpp"
#include "cuda/ntt/pipeline.hpp"
#include "random_fill.cuh"

namespace {

using namespace cuzk;
using C = curves::bls12_381;
using fr_t = ff::fr<C>;

void run_passes(const std::vector<cuda::ntt::detail::pass>& passes, unsigned blocks, cudaStream_t s) {
  using namespace cuda::ntt::detail;
  for (const pass& ps : passes) {
    if (blocks == 1)
      launch_with<C, 1>(ps, s);
    else if (blocks == 2)
      launch_with<C, 2>(ps, s);
    else
      launch_with<C, 3>(ps, s);
  }
}

template <bool Chain>
void BM_occupancy(benchmark::State& state) {
  using namespace cuda::ntt;
  const unsigned log_n = unsigned(state.range(0)), blocks = unsigned(state.range(1));
  const std::size_t n = std::size_t{1} << log_n;
  cuda::stream s;
  cuda::device_buffer<fr_t> src(n, "bench input"), dst(n, "bench output");
  bench::randomize(src, 7, s);
  const basic_tables<C>& t = basic_tables<C>::get(log_n, poly::root_family::bellman);
  std::vector<detail::pass> passes;
  if (Chain) {
    const fr_t g = fr_t::from_u64(7), n_inv = fr_t::from_u64(2).pow(std::uint64_t(log_n)).inverse();
    detail::append_dif_dit(passes, log_n, t.twiddles(), src.data(), dst.data(),
                           detail::factor_op(detail::device_powers<C>(log_n, g, n_inv), true), {});
  } else {
    detail::append_transform(passes, {log_n, t.twiddles(), false, true, std::nullopt, std::nullopt}, src.data(),
                             dst.data());
  }
  run_passes(passes, blocks, s);
  CUZK_CUDA_OK(cudaStreamSynchronize(s));
  cuda::event start, stop;
  for (auto _ : state) {
    start.record(s);
    run_passes(passes, blocks, s);
    stop.record(s);
    stop.sync();
    state.SetIterationTime(cuda::event::ms(start, stop) / 1e3);
  }
  state.counters["passes"] = double(passes.size());
}
BENCHMARK(BM_occupancy<false>)
    ->Name("BM_ntt_occupancy")
    ->ArgsProduct({{24, 26, 27}, {1, 2, 3}})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_occupancy<true>)
    ->Name("BM_to_coset_occupancy")
    ->ArgsProduct({{24, 26, 27}, {1, 2, 3}})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
