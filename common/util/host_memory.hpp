// The host's memory, for the checks that a node's pool and keys fit it.
#pragma once

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

}  // namespace cuzk::util
