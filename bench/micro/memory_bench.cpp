// This machine's memory bandwidth, the floor under a 2^20 NTT's passes and
// a key's reading (docs/benchmarks.md, issue 41): a 512 MiB buffer read
// (summed) and written, by 1 and 2 threads. Bytes a second are what moved.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

namespace {

constexpr std::size_t words = (std::size_t(512) << 20) / 8;

std::vector<std::uint64_t>& buffer() {
  static std::vector<std::uint64_t> b(words, 1);
  return b;
}

template <class F>
void split(int threads, F f) {
  std::vector<std::thread> ts;
  for (int t = 0; t < threads; ++t) ts.emplace_back([&, t] { f(words * t / threads, words * (t + 1) / threads); });
  for (auto& t : ts) t.join();
}

void BM_memory_read(benchmark::State& state) {
  auto& b = buffer();
  const int threads = int(state.range(0));
  for (auto _ : state) {
    std::uint64_t sums[2] = {};
    split(threads, [&](std::size_t lo, std::size_t hi) {
      std::uint64_t s = 0;
      for (std::size_t i = lo; i < hi; ++i) s += b[i];
      sums[lo == 0 ? 0 : 1] += s;
    });
    benchmark::DoNotOptimize(sums);
  }
  state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(words * 8));
}

void BM_memory_write(benchmark::State& state) {
  auto& b = buffer();
  const int threads = int(state.range(0));
  for (auto _ : state) {
    split(threads, [&](std::size_t lo, std::size_t hi) { std::memset(b.data() + lo, int(lo & 0xff), (hi - lo) * 8); });
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(std::int64_t(state.iterations()) * std::int64_t(words * 8));
}

BENCHMARK(BM_memory_read)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_memory_write)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
