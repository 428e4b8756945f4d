// Shared-memory pool: region creation (posix_fallocate + parallel pre-touch)
// per GiB, and slot transition throughput (assign → fill → prove → release).
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <atomic>
#include <string>

#include "shm/region.hpp"
#include "shm/slot_table.hpp"

namespace {

using namespace cuzk::shm;

std::string bench_name(const char* tag) { return std::string("cuzk-bench-") + tag + "-" + std::to_string(::getpid()); }

/* A 1 GiB region: one slot of domain 2^23 (a, b, c and z: 4 × 2^23 × 32 B). */
void BM_ShmCreate1GiB(benchmark::State& state) {
  const unsigned threads = static_cast<unsigned>(state.range(0));
  const std::string name = bench_name("create");
  std::uint64_t bytes = 0;
  for (auto _ : state) {
    auto r = region::create(region_config{}.with_name(name).with_slots({1, 1ULL << 23, 0}).with_touch_threads(threads));
    if (!r) {
      state.SkipWithError("region::create failed");
      break;
    }
    bytes = r->size();
    state.PauseTiming();
    { region gone = std::move(r).value(); }
    (void)region::destroy(region_location{name, {}}, true);
    state.ResumeTiming();
  }
  const double gib = static_cast<double>(bytes) / (1ULL << 30);
  state.counters["GiB/s"] = benchmark::Counter(gib, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["s/GiB"] =
      benchmark::Counter(gib, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_ShmCreate1GiB)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(5);

/* Faulting an existing 1 GiB region into a fresh mapping (what a server does
   before registering it): page-table work only, the pages already exist. */
void BM_ShmPrefault1GiB(benchmark::State& state) {
  const unsigned threads = static_cast<unsigned>(state.range(0));
  const std::string name = bench_name("prefault");
  auto made = region::create(region_config{}.with_name(name).with_slots({1, 1ULL << 23, 0}).with_touch_threads(2));
  if (!made) {
    state.SkipWithError("region::create failed");
    return;
  }
  std::uint64_t bytes = made->size();
  for (auto _ : state) {
    state.PauseTiming();
    auto r = region::open(region_location{name, {}});  // a new mapping: no page is mapped yet
    state.ResumeTiming();
    (void)r->prefault(threads);
    state.PauseTiming();
    { region gone = std::move(r).value(); }
    state.ResumeTiming();
  }
  (void)region::destroy(region_location{name, {}}, true);
  const double gib = static_cast<double>(bytes) / (1ULL << 30);
  state.counters["GiB/s"] = benchmark::Counter(gib, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_ShmPrefault1GiB)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(5);

/* One pool shared by the threads of the transition benchmark. */
struct shared_pool {
  std::string name = bench_name("cycle");
  region r = region::create(region_config{}.with_name(name).with_slots({4, 1024, 0}).with_touch_threads(1)).value();
  ~shared_pool() { (void)region::destroy(region_location{name, {}}, true); }
};
shared_pool& pool() {
  static shared_pool p;
  return p;
}

/* Every thread cycles over the same four slots; with two threads they
   contend for them (a CAS lost to the other thread skips to the next slot). */
void BM_ShmSlotCycle(benchmark::State& state) {
  slot_table t(pool().r);
  const std::uint32_t me = static_cast<std::uint32_t>(state.thread_index());
  std::uint64_t cycles = 0, lost = 0, s = me;
  for (auto _ : state) {
    s = (s + 1) % t.size();
    slot_word w = *t.word(s);
    if (w.state != slot_state::free || !t.assign(s, w.generation, me, 0, 0, 0)) {
      ++lost;
      continue;
    }
    bool ok = t.fill(s, w.generation, me, {1024, 1024, 1024, 0, false}) && t.start_proving(s, w.generation, me + 2) &&
              t.release(s, w.generation, me + 2);
    if (!ok) {
      state.SkipWithError("a transition of an owned slot failed");
      break;
    }
    ++cycles;
  }
  state.counters["cycles/s"] = benchmark::Counter(static_cast<double>(cycles), benchmark::Counter::kIsRate);
  state.counters["lost"] = benchmark::Counter(static_cast<double>(lost));
}
BENCHMARK(BM_ShmSlotCycle)->Threads(1)->Threads(2)->UseRealTime();

}  // namespace
