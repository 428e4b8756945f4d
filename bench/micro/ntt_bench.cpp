// NTTs over Fr: BM_ntt_<kind>/<log n>/<threads>. The domain's twiddles are
// built before timing; each iteration transforms the same buffer in place.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "poly/ntt.hpp"
#include "poly/threads.hpp"

namespace {

using cuzk::ff::fr_t;
using namespace cuzk::poly;

enum class kind { forward, inverse, coset_forward, coset_inverse };

template <kind K>
void BM_ntt(benchmark::State& state) {
  const basic_domain<cuzk::curves::bls12_381> d(unsigned(state.range(0)), root_family::snarkjs);
  const int threads = int(state.range(1));
  std::mt19937_64 rng(42);
  std::vector<fr_t> a(d.size());
  for (auto& x : a) x = fr_t::from_u64(rng());
  const fr_t g = d.odd_coset_shift();
  with_threads(threads, [&] {
    (void)d.twiddles();
    for (auto _ : state) {
      if constexpr (K == kind::forward) ntt(d, a);
      if constexpr (K == kind::inverse) intt(d, a);
      if constexpr (K == kind::coset_forward) coset_ntt(d, a, g);
      if constexpr (K == kind::coset_inverse) coset_intt(d, a, g);
      benchmark::DoNotOptimize(a.data());
    }
  });
  state.SetItemsProcessed(std::int64_t(state.iterations()) * std::int64_t(d.size()));
}

void sizes_and_threads(benchmark::internal::Benchmark* b) {
  b->Unit(benchmark::kMillisecond)->UseRealTime();
  for (int k : {16, 20})
    for (int t : {1, 2}) b->Args({k, t});
}

void BM_ntt_forward(benchmark::State& s) { BM_ntt<kind::forward>(s); }
void BM_ntt_inverse(benchmark::State& s) { BM_ntt<kind::inverse>(s); }
void BM_ntt_coset_forward(benchmark::State& s) { BM_ntt<kind::coset_forward>(s); }
void BM_ntt_coset_inverse(benchmark::State& s) { BM_ntt<kind::coset_inverse>(s); }

BENCHMARK(BM_ntt_forward)->Apply(sizes_and_threads);
BENCHMARK(BM_ntt_inverse)->Apply(sizes_and_threads);
BENCHMARK(BM_ntt_coset_forward)->Apply(sizes_and_threads);
BENCHMARK(BM_ntt_coset_inverse)->Apply(sizes_and_threads);

}  // namespace
