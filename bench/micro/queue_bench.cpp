// The server's tick against its queue at 1,000 queued jobs: what the loop
// does every tick (--tick) to keep the node-local queue true to the job table.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <string>

#include "queue/local_job_queue.hpp"
#include "shm/region.hpp"

namespace {

using namespace cuzk;

/* A region of 1,024 job records, with `jobs` one-partition jobs queued. */
struct queued_jobs {
  std::string name = "cuzk-bench-queue-" + std::to_string(::getpid());
  shm::region r;
  shm::job_table t{r};
  server::local_job_queue q{t, 2, [](shm::job_ref) {}};

  explicit queued_jobs(std::uint64_t jobs)
      : r(shm::region::create(
              shm::region_config{}.with_name(name).with_slots({8, 1024, 0}).with_jobs(1024).with_touch_threads(1))
              .value()) {
    for (std::uint64_t i = 0; i < jobs; ++i)
      (void)q.submit({"job-" + std::to_string(i), "client", "key", "{}", shm::priority::normal, 1});
  }
  ~queued_jobs() { (void)shm::region::destroy(shm::region_location{name, {}}, true); }
};

/* The tick's sync() with one partition out, still being synthesized. */
void BM_QueueTick(benchmark::State& state) {
  queued_jobs p(static_cast<std::uint64_t>(state.range(0)));
  auto q = p.q.take([](const server::queued_partition&, const shm::job_record&) { return true; });
  if (!q || !p.q.claim(*q, 0)) return state.SkipWithError("no partition to take");
  for (auto _ : state) {
    p.q.sync();
    benchmark::DoNotOptimize(p.q.size());
  }
  state.counters["queued"] = static_cast<double>(p.q.size());
}
BENCHMARK(BM_QueueTick)->Arg(1000)->Unit(benchmark::kMicrosecond);

/* One partition's round trip through another process: handed out (a tick's sync), requeued by a
   reclamation (the next tick's sync finds it again), taken again: two ticks. */
void BM_QueueTickSlotMoved(benchmark::State& state) {
  queued_jobs p(static_cast<std::uint64_t>(state.range(0)));
  auto q = p.q.take([](const server::queued_partition&, const shm::job_record&) { return true; });
  if (!q || !p.q.claim(*q, 0)) return state.SkipWithError("no partition to take");
  for (auto _ : state) {
    p.q.sync();
    (void)p.t.requeue(q->job, 0);
    p.q.sync();
    q = p.q.take([](const server::queued_partition&, const shm::job_record&) { return true; });
    (void)p.q.claim(*q, 0);
  }
  state.counters["queued"] = static_cast<double>(p.q.size() + 1);
}
BENCHMARK(BM_QueueTickSlotMoved)->Arg(1000)->Unit(benchmark::kMicrosecond);

/* What every tick did before the queue followed the changes, and a start still does: the full rebuild. */
void BM_QueueRebuild(benchmark::State& state) {
  queued_jobs p(static_cast<std::uint64_t>(state.range(0)));
  for (auto _ : state) {
    p.q.refresh(false);
    benchmark::DoNotOptimize(p.q.size());
  }
  state.counters["queued"] = static_cast<double>(p.q.size());
}
BENCHMARK(BM_QueueRebuild)->Arg(1000)->Unit(benchmark::kMicrosecond);

}  // namespace
