// Bounding the threads of the parallel poly/, msm/ and groth16/ routines: they
// run in the caller's TBB arena, so running them inside a task_arena of T
// threads uses at most T (benchmarks, and services sharing the machine).
// The one thread-arena helper of the project (msm::options::threads and the
// CPU prover's thread count go through it too).
#pragma once

#include <utility>

#include <tbb/task_arena.h>

namespace cuzk::poly {

/* f() in a fresh arena of `threads` worker threads; threads <= 0: f() in the
   caller's arena (all cores, or whatever bound the caller is already under) */
template <class F>
decltype(auto) with_threads(int threads, F&& f) {
  if (threads <= 0) return std::forward<F>(f)();
  tbb::task_arena arena(threads);
  return arena.execute(std::forward<F>(f));
}

}  // namespace cuzk::poly
