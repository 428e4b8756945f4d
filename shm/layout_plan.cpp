#include "shm/layout_plan.hpp"

#include <algorithm>
#include <cstring>

namespace cuzk::shm::detail {
namespace {

/* Field-element bytes (BLS12-381 Fr, 32 B). */
constexpr std::uint64_t element_bytes = 32;
/* Keeps every offset and size far from 2^64: 2^40 elements per vector (32 TiB). */
constexpr std::uint64_t max_elements = 1ULL << 40;

void say(std::string* why, std::string s) {
  if (why) *why = std::move(s);
}

struct fnv1a {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  void add(std::uint64_t v) noexcept {
    for (int i = 0; i < 8; ++i) {
      h ^= (v >> (8 * i)) & 0xff;
      h *= 0x100000001b3ULL;
    }
  }
};

}  // namespace

std::uint64_t layout_hash(const layout_plan& p) noexcept {
  fnv1a f;
  f.add(layout_version);
  f.add(sizeof(region_header));
  f.add(sizeof(lease_entry));
  f.add(sizeof(slot_entry));
  f.add(sizeof(job_record));
  f.add(p.n_classes);
  f.add(p.lease_capacity);
  f.add(p.n_slots);
  f.add(p.job_capacity);
  f.add(p.lease_offset);
  f.add(p.slot_offset);
  f.add(p.job_offset);
  f.add(p.payload_offset);
  for (std::uint32_t i = 0; i < p.n_classes; ++i) {
    const slot_class& c = p.classes[i];
    for (std::uint64_t v : {c.count, c.domain, c.witness, c.slot_bytes, c.first_slot, c.payload_offset}) f.add(v);
  }
  return f.h;
}

result<layout_plan> plan_layout(std::vector<slot_class_config> classes, std::uint32_t lease_capacity,
                                std::uint64_t job_capacity, std::string* why) noexcept {
  try {
    if (classes.empty()) return say(why, "no slot classes configured"), unexpected(error::bad_config);
    if (classes.size() > max_slot_classes)
      return say(why, "at most " + std::to_string(max_slot_classes) + " slot classes"), unexpected(error::bad_config);
    if (lease_capacity == 0 || lease_capacity > max_leases)
      return say(why, "lease capacity must be 1.." + std::to_string(max_leases)), unexpected(error::bad_config);
    if (job_capacity == 0 || job_capacity > (1ULL << 20))
      return say(why, "job capacity must be 1..1048576"), unexpected(error::bad_config);
    layout_plan p;
    std::vector<slot_class> cs;
    for (const slot_class_config& c : classes) {
      if (c.count == 0 || c.max_constraints == 0)
        return say(why, "a slot class needs a count and a constraint capacity (e.g. 4x65536)"),
               unexpected(error::bad_config);
      if (c.max_constraints > max_elements || c.witness > max_elements || c.count > (1ULL << 24))
        return say(why, "slot class too large"), unexpected(error::bad_config);
      slot_class s{};
      s.count = c.count;
      s.domain = next_pow2(c.max_constraints);
      s.witness = c.witness ? c.witness : s.domain;
      s.slot_bytes = round_up((3 * s.domain + s.witness) * element_bytes, payload_alignment);
      cs.push_back(s);
    }
    std::stable_sort(cs.begin(), cs.end(), [](const slot_class& x, const slot_class& y) {
      return x.domain != y.domain ? x.domain < y.domain : x.witness < y.witness;
    });
    p.n_classes = static_cast<std::uint32_t>(cs.size());
    p.lease_capacity = lease_capacity;
    p.job_capacity = job_capacity;
    for (const slot_class& c : cs) p.n_slots += c.count;
    // The slot index is stored in 28 bits of a partition word; owner/lease in 12.
    if (p.n_slots >= (1ULL << 28)) return say(why, "too many slots"), unexpected(error::bad_config);
    p.lease_offset = header_bytes;
    p.slot_offset = round_up(p.lease_offset + lease_capacity * sizeof(lease_entry), 4096);
    p.job_offset = round_up(p.slot_offset + p.n_slots * sizeof(slot_entry), 4096);
    p.payload_offset = round_up(p.job_offset + job_capacity * sizeof(job_record), payload_alignment);
    std::uint64_t at = p.payload_offset, first = 0;
    for (std::size_t i = 0; i < cs.size(); ++i) {
      cs[i].first_slot = first;
      cs[i].payload_offset = at;
      first += cs[i].count;
      at += cs[i].count * cs[i].slot_bytes;
      p.classes[i] = cs[i];
    }
    p.end = at;
    p.hash = layout_hash(p);
    return p;
  } catch (...) {
    return say(why, "out of memory"), unexpected(error::os_error);
  }
}

result<layout_plan> plan_of(const region_header& h, std::string* why) noexcept {
  if (h.n_classes == 0 || h.n_classes > max_slot_classes)
    return say(why, "field 'n_classes' is " + std::to_string(h.n_classes) + ", expected 1.." +
                        std::to_string(max_slot_classes)),
           unexpected(error::bad_layout_hash);
  std::vector<slot_class_config> cfg;
  for (std::uint32_t i = 0; i < h.n_classes; ++i)
    cfg.push_back({h.classes[i].count, h.classes[i].domain, h.classes[i].witness});
  std::string inner;
  auto p = plan_layout(cfg, h.lease_capacity, h.job_capacity, &inner);
  if (!p) return say(why, "the header's slot classes are invalid: " + inner), unexpected(error::bad_layout_hash);
  return p;
}

}  // namespace cuzk::shm::detail
