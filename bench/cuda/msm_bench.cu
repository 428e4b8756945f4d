// Device MSM (cuda/msm/msm.hpp), bases resident, scalars on the device, for
// each curve (CURVE = bls12_381 or bn254):
//   BM_cuda_msm_g1_CURVE/<log n>, BM_cuda_msm_g2_CURVE/<log n>   uniformly random scalars below r
//   BM_cuda_msm_g1_witness_CURVE/<log n>   90% zeros and ones (45% each) and 10% random, split on
//     the host by msm::split_scalars (not timed): the ones through sum, the rest through pippenger
//   BM_cuda_msm_{g1,g2,g1_witness}_shifted_CURVE/<log n>/<most copies>   the same over shifted copies
//     of the bases (msm::plan_shifts, at most that many; made once, not timed: counter shift_ms),
//     with the device bytes of the bases with and without them
// The plain and shifted MSMs also report one more call's phases (msm::phase_times):
// assign_ms (keys, sort, run-length encoding), accumulate_ms, reduce_ms.
//   BM_cuda_fp_inverse_CURVE   the device inversion in Fp (Fermat: x^(p-2)), counter
//     muls_per_inverse: its time in Fp multiplications, both timed as dependent chains in
//     the same launch shape (what batch-affine bucket sums must amortize over a batch)
// Times are CUDA events around the blocking calls (manual time), so they include
// the windows' combination on the host. The bases are 2^20 distinct points
// P_0 + i Q (built in parallel on the CPU) tiled to the size wanted: random
// points at 2^26 would take the CPU too long, and 2^20 of them already exceed
// the L2 cache, so the gathers cost what distinct bases would.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <map>
#include <memory>
#include <random>
#include <vector>

#include <tbb/parallel_for.h>

#include "cuda/device.hpp"
#include "cuda/ff/fp.cuh"
#include "cuda/memory.hpp"
#include "cuda/msm/msm.hpp"
#include "ec/batch_affine.hpp"
#include "ec/scalar_mul.hpp"
#include "msm/booth.hpp"
#include "msm/split.hpp"

namespace {

using namespace cuzk;
using ec::scalar_limbs_t;

constexpr unsigned distinct_log = 20;

template <class Curve>
std::vector<typename ec::jacobian<Curve>::affine_t> host_bases(unsigned log_n) {
  using jac_t = ec::jacobian<Curve>;
  using aff_t = typename jac_t::affine_t;
  const std::size_t n = std::size_t(1) << log_n, m = std::size_t(1) << std::min(log_n, distinct_log), chunk = 4096;
  std::vector<aff_t> v(n);
  const jac_t p0 = ec::mul(jac_t::generator(), scalar_limbs_t{0x9e3779b97f4a7c15, 1, 2, 3});
  const jac_t q = ec::mul(jac_t::generator(), scalar_limbs_t{0xc2b2ae3d27d4eb4f, 4, 5, 6});
  const aff_t qa = q.to_affine();
  tbb::parallel_for(std::size_t(0), (m + chunk - 1) / chunk, [&](std::size_t c) {
    const std::size_t lo = c * chunk, len = std::min(chunk, m - lo);
    std::vector<jac_t> jac(len);
    jac_t p = p0 + ec::mul(q, scalar_limbs_t{lo, 0, 0, 0}); /* P_lo = P_0 + lo Q */
    for (auto& x : jac) {
      x = p;
      p += qa;
    }
    ec::batch_to_affine<Curve>(std::span<const jac_t>(jac), std::span<aff_t>(v.data() + lo, len));
  });
  for (std::size_t i = m; i < n; ++i) v[i] = v[i % m];
  return v;
}

template <class Curve>
using bases_t = cuda::msm::device_bases<ec::affine_point<typename Curve::field_t>>;

/* resident bases, one set per group and size, kept for the whole run (the shifted benchmarks drop them) */
template <class Curve>
std::map<unsigned, std::unique_ptr<bases_t<Curve>>>& bases_cache() {
  static std::map<unsigned, std::unique_ptr<bases_t<Curve>>> cache;
  return cache;
}
template <class Curve>
const bases_t<Curve>& device_bases(unsigned log_n) {
  auto& b = bases_cache<Curve>()[log_n];
  if (!b) b = std::make_unique<bases_t<Curve>>(host_bases<Curve>(log_n));
  return *b;
}

/* uniform below r of curve C (rejection on r's bit length); witness: 45% 0, 45% 1, 10% uniform */
template <class C>
std::vector<scalar_limbs_t> host_scalars(unsigned log_n, bool witness) {
  constexpr unsigned top = C::fr_params::bits - 192;
  const std::size_t n = std::size_t(1) << log_n, chunk = std::size_t(1) << 16;
  std::vector<scalar_limbs_t> v(n);
  tbb::parallel_for(std::size_t(0), (n + chunk - 1) / chunk, [&](std::size_t c) {
    std::mt19937_64 g(log_n * 1000003 + c);
    for (std::size_t i = c * chunk; i < std::min(n, (c + 1) * chunk); ++i) {
      const auto u = g() % 20;
      if (witness && u < 18) {
        v[i] = {u % 2, 0, 0, 0};
        continue;
      }
      do v[i] = {g(), g(), g(), g() >> (64 - top)};
      while (!ff::limbs::less(v[i], C::fr_params::modulus));
    }
  });
  return v;
}

template <class T>
cuda::device_buffer<T> to_device(std::span<const T> v, const char* what) {
  cuda::device_buffer<T> d(std::max<std::size_t>(v.size(), 1), what);
  d.upload(v);
  CUZK_CUDA_OK(cudaDeviceSynchronize());
  return d;
}

template <class F>
void timed(benchmark::State& state, F&& f) {
  cuda::event start, stop;
  for (auto _ : state) {
    start.record(0);
    f();
    stop.record(0);
    stop.sync();
    state.SetIterationTime(cuda::event::ms(start, stop) / 1e3);
  }
}

/* The bases of BM_*_shifted: shifted copies, at most state.range(1); made here, counted, dropped after. */
template <class Curve>
std::unique_ptr<bases_t<Curve>> shifted_bases(benchmark::State& state) {
  using C = typename Curve::curve;
  const auto log_n = unsigned(state.range(0));
  bases_cache<Curve>().clear(); /* room for the copies */
  auto b = std::make_unique<bases_t<Curve>>(host_bases<Curve>(log_n));
  const auto sh = cuda::msm::plan_shifts(std::size_t(1) << log_n, unsigned(state.range(1)), msm::scalar_bits<C>);
  const std::size_t plain = b->bytes();
  cuda::event start, stop;
  start.record(0);
  b->shift(sh, 0);
  stop.record(0);
  stop.sync();
  state.counters["copies"] = sh.copies;
  state.counters["shift_window"] = sh.c;
  state.counters["shift_ms"] = cuda::event::ms(start, stop);
  state.counters["bases_GiB"] = double(plain) / double(1ULL << 30);
  state.counters["shifted_GiB"] = double(b->bytes()) / double(1ULL << 30);
  return b;
}

/* Curve: ec::g1_group<C> or ec::g2_group<C> */
template <class Curve, bool shifted = false>
void BM_cuda_msm(benchmark::State& state) {
  using C = typename Curve::curve;
  if (cuda::device_count() == 0) return state.SkipWithError("no CUDA device");
  const auto log_n = unsigned(state.range(0));
  const std::size_t n = std::size_t(1) << log_n;
  const auto own = shifted ? shifted_bases<Curve>(state) : nullptr;
  const auto& bases = shifted ? *own : device_bases<Curve>(log_n);
  const auto k = to_device<scalar_limbs_t>(host_scalars<C>(log_n, false), "bench scalars");
  const cuda::msm::scalars s{k.data(), nullptr, 0, n};
  cuda::msm::pippenger(bases, s, 0); /* warm-up: the workspace grows once */
  timed(state, [&] { benchmark::DoNotOptimize(cuda::msm::pippenger(bases, s, 0)); });
  state.counters["window_bits"] = cuda::msm::window_bits(n, msm::scalar_bits<C>);
  cuda::msm::phase_times pt; /* one more call, its phases apart */
  cuda::msm::pippenger(bases, s, 0, &pt);
  state.counters["assign_ms"] = pt.assign_ms;
  state.counters["accumulate_ms"] = pt.accumulate_ms;
  state.counters["reduce_ms"] = pt.reduce_ms;
}

template <class C, bool shifted = false>
void BM_cuda_msm_g1_witness(benchmark::State& state) {
  if (cuda::device_count() == 0) return state.SkipWithError("no CUDA device");
  const auto log_n = unsigned(state.range(0));
  const auto own = shifted ? shifted_bases<ec::g1_group<C>>(state) : nullptr;
  const auto& bases = shifted ? *own : device_bases<ec::g1_group<C>>(log_n);
  const auto split = msm::split_scalars(std::span<const scalar_limbs_t>(host_scalars<C>(log_n, true)));
  const auto ones = to_device<std::uint32_t>(split.ones, "bench ones");
  const auto others = to_device<std::uint32_t>(split.others, "bench others");
  const auto k = to_device<scalar_limbs_t>(split.other_scalars, "bench other scalars");
  const cuda::msm::scalars s{k.data(), others.data(), 0, split.others.size()};
  auto run = [&] {
    auto a = cuda::msm::sum(bases, ones.data(), 0, split.ones.size(), 0);
    auto b = cuda::msm::pippenger(bases, s, 0);
    return a + b;
  };
  run();
  timed(state, [&] { benchmark::DoNotOptimize(run()); });
  state.counters["ones"] = double(split.ones.size());
  state.counters["others"] = double(split.others.size());
}

/* x <- 1 / (x + y) (inverse) or x <- x y (multiply), `steps` times a thread */
template <class F, bool inverse>
__global__ void field_chain(F* x, F y, int steps) {
  const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  F a = x[i];
  for (int k = 0; k < steps; ++k) a = inverse ? (a + y).inverse() : a * y;
  x[i] = a;
}

template <class C>
void BM_cuda_fp_inverse(benchmark::State& state) {
  using F = cuda::fp<C>;
  if (cuda::device_count() == 0) return state.SkipWithError("no CUDA device");
  constexpr std::size_t threads = std::size_t(1) << 18;
  constexpr int inverses = 16, muls = 4096;
  std::vector<F> host(threads);
  std::mt19937 g(7);
  for (auto& e : host) e = F::from_u32(g() | 1);
  cuda::device_buffer<F> x(threads, "bench x");
  x.upload(std::span<const F>(host));
  const F y = F::from_u32(3);
  auto run = [&](auto kernel, int steps) {
    cuda::event start, stop;
    start.record(0);
    kernel<<<unsigned(threads / 256), 256>>>(x.data(), y, steps);
    CUZK_CUDA_LAUNCHED();
    stop.record(0);
    stop.sync();
    return cuda::event::ms(start, stop);
  };
  run(field_chain<F, true>, 1);
  run(field_chain<F, false>, 16);
  double t_inv = 0;
  for (auto _ : state) {
    t_inv = run(field_chain<F, true>, inverses);
    state.SetIterationTime(t_inv / 1e3);
  }
  const double t_mul = run(field_chain<F, false>, muls);
  state.SetItemsProcessed(state.iterations() * std::int64_t(threads) * inverses);
  state.counters["muls_per_inverse"] = (t_inv / inverses) / (t_mul / muls);
  state.counters["mul_G_per_s"] = double(threads) * muls / (t_mul * 1e6);
}

using bls = curves::bls12_381;
using bn = curves::bn254;
BENCHMARK(BM_cuda_fp_inverse<bls>)
    ->Name("BM_cuda_fp_inverse_bls12_381")
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_cuda_fp_inverse<bn>)->Name("BM_cuda_fp_inverse_bn254")->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_cuda_msm<ec::g1_group<bls>>)
    ->Name("BM_cuda_msm_g1_bls12_381")
    ->Arg(20)
    ->Arg(24)
    ->Arg(26)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_cuda_msm<ec::g2_group<bls>>)
    ->Name("BM_cuda_msm_g2_bls12_381")
    ->Arg(20)
    ->Arg(24)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_cuda_msm_g1_witness<bls>)
    ->Name("BM_cuda_msm_g1_witness_bls12_381")
    ->Arg(20)
    ->Arg(24)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_cuda_msm<ec::g1_group<bn>>)
    ->Name("BM_cuda_msm_g1_bn254")
    ->Arg(20)
    ->Arg(24)
    ->Arg(26)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_cuda_msm<ec::g2_group<bn>>)
    ->Name("BM_cuda_msm_g2_bn254")
    ->Arg(20)
    ->Arg(24)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_cuda_msm_g1_witness<bn>)
    ->Name("BM_cuda_msm_g1_witness_bn254")
    ->Arg(20)
    ->Arg(24)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

/* most copies 64: as many as fold every window into one */
BENCHMARK(BM_cuda_msm<ec::g1_group<bls>, true>)
    ->Name("BM_cuda_msm_g1_shifted_bls12_381")
    ->Args({20, 64})
    ->Args({24, 64})
    ->Args({26, 64})
    ->Args({26, 4})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_cuda_msm<ec::g2_group<bls>, true>)
    ->Name("BM_cuda_msm_g2_shifted_bls12_381")
    ->Args({20, 64})
    ->Args({24, 64})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_cuda_msm_g1_witness<bls, true>)
    ->Name("BM_cuda_msm_g1_witness_shifted_bls12_381")
    ->Args({24, 64})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_cuda_msm<ec::g1_group<bn>, true>)
    ->Name("BM_cuda_msm_g1_shifted_bn254")
    ->Args({20, 64})
    ->Args({24, 64})
    ->Args({26, 64})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
BENCHMARK(BM_cuda_msm<ec::g2_group<bn>, true>)
    ->Name("BM_cuda_msm_g2_shifted_bn254")
    ->Args({20, 64})
    ->Args({24, 64})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
