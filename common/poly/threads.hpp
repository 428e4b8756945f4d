// Bounding the threads of the parallel poly/ and msm/ routines: they run in
// the caller's TBB arena, so running them inside a task_arena of T threads
// uses at most T (benchmarks, and services sharing the machine).
#pragma once

#include <utility>

#include <tbb/task_arena.h>

namespace cuzk::poly {

/* f() with at most `threads` worker threads; threads <= 0 means TBB's default */
template <class F>
decltype(auto) with_threads(int threads, F&& f) {
  tbb::task_arena arena(threads > 0 ? threads : tbb::task_arena::automatic);
  return arena.execute(std::forward<F>(f));
}

}  // namespace cuzk::poly
