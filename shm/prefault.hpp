// Faulting every page of a fresh region in, from several threads.
#pragma once

#include <cstdint>

#include "shm/error.hpp"

namespace cuzk::shm::detail {

/* threads = 0: all cores. page: the mapping's page size (4 KiB or huge). */
result<void> prefault(std::uint8_t* base, std::uint64_t bytes, unsigned threads, std::uint64_t page) noexcept;

}  // namespace cuzk::shm::detail
