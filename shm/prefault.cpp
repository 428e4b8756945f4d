#include "shm/prefault.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14
#endif

namespace cuzk::shm::detail {
namespace {

/* MADV_POPULATE_WRITE faults a range in with one call (write faults, so the
   pages are also dirty-accounted now, not at the first real store); kernels
   before 5.14 get a store to every page instead. */
bool touch(std::uint8_t* p, std::uint64_t n, std::uint64_t page) noexcept {
  if (::madvise(p, n, MADV_POPULATE_WRITE) == 0) return true;
  for (std::uint64_t off = 0; off < n; off += page) {
    volatile std::uint8_t* b = p + off;
    *b = *b;
  }
  return true;
}

}  // namespace

result<void> prefault(std::uint8_t* base, std::uint64_t bytes, unsigned threads, std::uint64_t page) noexcept {
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  std::uint64_t pages = (bytes + page - 1) / page;
  threads = static_cast<unsigned>(std::min<std::uint64_t>(threads, std::max<std::uint64_t>(1, pages)));
  // Chunks of 64 MiB (page multiples) handed out dynamically: threads finish together.
  const std::uint64_t chunk = std::max<std::uint64_t>(page, (64ULL << 20) / page * page);
  std::atomic<std::uint64_t> next{0};
  auto work = [&] {
    for (;;) {
      std::uint64_t at = next.fetch_add(chunk, std::memory_order_relaxed);
      if (at >= bytes) return;
      touch(base + at, std::min(chunk, bytes - at), page);
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) {
    try {
      pool.emplace_back(work);
    } catch (...) {
      break;  // fewer threads: the others take the rest
    }
  }
  work();
  for (auto& t : pool) t.join();
  return {};
}

}  // namespace cuzk::shm::detail
