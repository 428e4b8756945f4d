#include "groth16/keys.hpp"

#include <sys/mman.h>
#include <unistd.h>

namespace cuzk::groth16 {

void mapped_bases::reclaim(std::span<const std::uint8_t> bytes) const {
  if (!reclaimable || bytes.empty()) return;
  const std::uintptr_t page = std::uintptr_t(::sysconf(_SC_PAGESIZE));
  const std::uintptr_t lo = (reinterpret_cast<std::uintptr_t>(bytes.data()) + page - 1) / page * page;
  const std::uintptr_t hi = (reinterpret_cast<std::uintptr_t>(bytes.data()) + bytes.size()) / page * page;
  if (hi > lo) ::madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_DONTNEED);
}

}  // namespace cuzk::groth16
