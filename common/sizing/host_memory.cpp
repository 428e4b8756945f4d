#include "sizing/host_memory.hpp"

#include <algorithm>

namespace cuzk::sizing {

std::uint64_t srs_content_bytes(std::uint64_t file_bytes, std::uint64_t native_coefs_bytes, std::uint64_t points_bytes,
                                bool points_dropped) {
  const std::uint64_t left_out = native_coefs_bytes + (points_dropped ? points_bytes : 0);
  return file_bytes - std::min(left_out, file_bytes);
}

}  // namespace cuzk::sizing
