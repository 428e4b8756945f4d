// What a node holds in host memory (DESIGN §9), against the host's MemTotal:
// its pool, its keys' SRS regions, its synthesis workers' and its server's
// private memory. The server refuses to start beyond it (its pool and SRS
// regions); cuzk plan adds the processes and says what does not fit.
#pragma once

#include <cstdint>

namespace cuzk::sizing {

/* The content of a key's SRS region: its .zkey (file_bytes), less a native key's coefficients (no job reads
   them), less its five point sections (points_bytes) when its host copy is dropped. */
std::uint64_t srs_content_bytes(std::uint64_t file_bytes, std::uint64_t native_coefs_bytes, std::uint64_t points_bytes,
                                bool points_dropped);

struct host_memory_use {
  std::uint64_t pool = 0, srs_regions = 0, workers = 0, server = 0;

  std::uint64_t total() const { return pool + srs_regions + workers + server; }
  /* host_bytes: the host's memory (0: unknown, and nothing is refused for it) */
  bool fits(std::uint64_t host_bytes) const { return host_bytes == 0 || total() <= host_bytes; }
};

}  // namespace cuzk::sizing
