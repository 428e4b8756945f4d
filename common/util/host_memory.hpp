// The host's memory, for the checks that a node's pool and keys fit it, and
// pages given back to it.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>

namespace cuzk::util {

/* MemTotal of /proc/meminfo in bytes; 0 when unreadable. CUZK_HOST_MEMORY (bytes) stands in for it, so that
   tests can play a smaller host. */
inline std::uint64_t host_memory_total() {
  if (const char* v = std::getenv("CUZK_HOST_MEMORY"); v && *v) return std::strtoull(v, nullptr, 10);
  std::ifstream f("/proc/meminfo");
  std::string key, unit;
  std::uint64_t kib = 0;
  while (f >> key >> kib >> unit)
    if (key == "MemTotal:") return kib * 1024;
  return 0;
}

/* The whole pages inside [data, data + bytes) given back to the kernel (MADV_DONTNEED): anonymous ones read as
   zeros if touched again, those of a private file mapping are read from the file again. */
inline void release_pages(const void* data, std::size_t bytes) {
  const std::uintptr_t page = std::uintptr_t(::sysconf(_SC_PAGESIZE));
  const std::uintptr_t lo = (reinterpret_cast<std::uintptr_t>(data) + page - 1) / page * page;
  const std::uintptr_t hi = (reinterpret_cast<std::uintptr_t>(data) + bytes) / page * page;
  if (hi > lo) ::madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_DONTNEED);
}

}  // namespace cuzk::util
