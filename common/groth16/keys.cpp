#include "groth16/keys.hpp"

#include "util/host_memory.hpp"

namespace cuzk::groth16 {

void mapped_bases::reclaim(std::span<const std::uint8_t> bytes) const {
  if (reclaimable) util::release_pages(bytes.data(), bytes.size());
}

}  // namespace cuzk::groth16
