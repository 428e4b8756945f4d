// MSM in G1 and G2: BM_msm_<group>/<log n>/<threads> on uniformly random
// scalars (all through Pippenger), BM_msm_g1_witness on a boolean-heavy
// witness (half 0, 40% 1, 10% random: the scalar split at work).
// Bases are distinct points P_0 + i Q (built in parallel chunks, one batch
// normalization each) and cached across benchmarks, so setup stays short.
#include <benchmark/benchmark.h>

#include <map>
#include <random>
#include <vector>

#include <tbb/parallel_for.h>

#include "ec/batch_affine.hpp"
#include "ec/scalar_mul.hpp"
#include "msm/msm.hpp"

namespace {

using namespace cuzk;

template <class Curve>
const std::vector<typename ec::jacobian<Curve>::affine_t>& bases(unsigned log_n) {
  using jac_t = ec::jacobian<Curve>;
  using aff_t = typename jac_t::affine_t;
  static std::map<unsigned, std::vector<aff_t>> cache;
  auto& v = cache[log_n];
  if (!v.empty()) return v;
  const std::size_t n = std::size_t(1) << log_n, chunk = 4096;
  v.resize(n);
  const jac_t p0 = ec::mul(jac_t::generator(), ec::scalar_limbs_t{0x9e3779b97f4a7c15, 1, 2, 3});
  const jac_t q = ec::mul(jac_t::generator(), ec::scalar_limbs_t{0xc2b2ae3d27d4eb4f, 4, 5, 6});
  const aff_t qa = q.to_affine();
  tbb::parallel_for(std::size_t(0), (n + chunk - 1) / chunk, [&](std::size_t c) {
    const std::size_t lo = c * chunk, len = std::min(chunk, n - lo);
    std::vector<jac_t> jac(len);
    jac_t p = p0 + ec::mul(q, ec::scalar_limbs_t{lo, 0, 0, 0}); /* P_lo = P_0 + lo Q */
    for (auto& x : jac) {
      x = p;
      p += qa;
    }
    ec::batch_to_affine<Curve>(std::span<const jac_t>(jac), std::span<aff_t>(v.data() + lo, len));
  });
  return v;
}

ec::fr_t random_fr(std::mt19937_64& g) {
  for (;;) {
    ec::scalar_limbs_t l{g(), g(), g(), g() >> 1};
    if (auto f = ec::fr_t::from_canonical(l)) return *f;
  }
}

/* witness = false: uniform below r; true: 50% 0, 40% 1, 10% uniform */
const std::vector<ec::fr_t>& scalars(unsigned log_n, bool witness) {
  static std::map<std::pair<unsigned, bool>, std::vector<ec::fr_t>> cache;
  auto& v = cache[{log_n, witness}];
  if (!v.empty()) return v;
  std::mt19937_64 g(log_n);
  v.resize(std::size_t(1) << log_n);
  for (auto& k : v) {
    const auto u = g() % 10;
    k = !witness || u == 9 ? random_fr(g) : u < 5 ? ec::fr_t::zero() : ec::fr_t::one();
  }
  return v;
}

template <class Curve, class Msm>
void run(benchmark::State& state, Msm msm, bool witness = false) {
  const unsigned log_n = unsigned(state.range(0));
  const auto& b = bases<Curve>(log_n);
  const auto& s = scalars(log_n, witness);
  const msm::options opt{.threads = int(state.range(1))};
  msm::stats st;
  for (auto _ : state) benchmark::DoNotOptimize(msm(b, s, opt, &st));
  state.counters["c"] = st.window_bits;
  state.counters["chunks"] = st.chunks;
  state.SetItemsProcessed(std::int64_t(state.iterations()) * std::int64_t(b.size()));
}

void BM_msm_g1(benchmark::State& state) {
  run<ec::g1_curve>(state,
                    [](const auto& b, const auto& s, const auto& o, auto* st) { return msm::msm_g1(b, s, o, st); });
}
void BM_msm_g2(benchmark::State& state) {
  run<ec::g2_curve>(state,
                    [](const auto& b, const auto& s, const auto& o, auto* st) { return msm::msm_g2(b, s, o, st); });
}

void BM_msm_g1_witness(benchmark::State& state) {
  run<ec::g1_curve>(
      state, [](const auto& b, const auto& s, const auto& o, auto* st) { return msm::msm_g1(b, s, o, st); }, true);
}

void sizes_and_threads(benchmark::internal::Benchmark* b) {
  b->Unit(benchmark::kMillisecond)->UseRealTime();
  for (int k : {16, 20})
    for (int t : {1, 2}) b->Args({k, t});
}

BENCHMARK(BM_msm_g1)->Apply(sizes_and_threads);
BENCHMARK(BM_msm_g2)->Apply(sizes_and_threads);
BENCHMARK(BM_msm_g1_witness)->Apply(sizes_and_threads);

}  // namespace
