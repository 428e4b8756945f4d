// Where everything lives in a region, computed from the configuration alone,
// so a region's header can be checked against what its own fields imply.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "shm/error.hpp"
#include "shm/layout.hpp"
#include "shm/region.hpp"

namespace cuzk::shm::detail {

inline constexpr std::uint64_t header_bytes = 4096;

struct layout_plan {
  std::uint32_t n_classes = 0;
  std::uint32_t lease_capacity = 0;
  std::uint64_t n_slots = 0, job_capacity = 0;
  std::uint64_t lease_offset = 0, slot_offset = 0, job_offset = 0, payload_offset = 0;
  std::uint64_t end = 0;  // bytes the layout needs (a multiple of payload_alignment)
  slot_class classes[max_slot_classes] = {};
  std::uint64_t hash = 0;
};

constexpr std::uint64_t round_up(std::uint64_t v, std::uint64_t a) noexcept { return (v + a - 1) / a * a; }
constexpr std::uint64_t next_pow2(std::uint64_t v) noexcept {
  std::uint64_t p = 1;
  while (p < v) p <<= 1;
  return p;
}

/* Classes are sorted by (domain, witness) so class indices grow with size. */
result<layout_plan> plan_layout(std::vector<slot_class_config> classes, std::uint32_t lease_capacity,
                                std::uint64_t job_capacity, std::string* why) noexcept;
/* The plan the header's own classes and capacities imply. */
result<layout_plan> plan_of(const region_header& h, std::string* why) noexcept;
/* FNV-1a over the version, record sizes, classes, capacities and offsets. */
std::uint64_t layout_hash(const layout_plan& p) noexcept;

}  // namespace cuzk::shm::detail
