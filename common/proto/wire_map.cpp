#include "proto/wire_map.hpp"

#include <array>
#include <string>
#include <utility>

#include <google/protobuf/descriptor.h>
#include <google/protobuf/reflection.h>

namespace cuzk::proto {

namespace {

namespace pb = google::protobuf;

constexpr std::array<std::pair<priority, wire::Priority>, 4> wire_priorities{{
    {priority::high, wire::PRIORITY_HIGH},
    {priority::normal, wire::PRIORITY_NORMAL},
    {priority::low, wire::PRIORITY_LOW},
    {priority::critical, wire::PRIORITY_CRITICAL},
}};

/* PartitionTimings' field of each timing, found by its name once; null for a timing without one (the codec's
   unit test names it). */
const std::array<const pb::FieldDescriptor*, groth16::n_timings>& timing_fields() {
  static const auto fields = [] {
    std::array<const pb::FieldDescriptor*, groth16::n_timings> f{};
    for (std::size_t i = 0; i < f.size(); ++i)
      f[i] = wire::PartitionTimings::descriptor()->FindFieldByName(std::string(groth16::timing_names[i]) + "_us");
    return f;
  }();
  return fields;
}

}  // namespace

wire::Priority to_wire(priority p) {
  for (const auto& [ours, theirs] : wire_priorities)
    if (ours == p) return theirs;
  return static_cast<wire::Priority>(p);  // out of range on purpose: tests build bad frames
}

priority priority_from_wire(int v) {
  for (const auto& [ours, theirs] : wire_priorities)
    if (theirs == v) return ours;
  return static_cast<priority>(255);
}

void put(wire::PartitionTimings& w, const partition_timings& t) {
  const auto& fields = timing_fields();
  for (std::size_t i = 0; i < fields.size(); ++i)
    if (fields[i]) w.GetReflection()->SetUInt64(&w, fields[i], t.us[i]);
}

partition_timings from_wire(const wire::PartitionTimings& w) {
  partition_timings t;
  const auto& fields = timing_fields();
  for (std::size_t i = 0; i < fields.size(); ++i)
    if (fields[i]) t.us[i] = w.GetReflection()->GetUInt64(w, fields[i]);
  return t;
}

void put(wire::GpuStatus& w, const gpu_status& g) {
  w.set_device(g.device);
  w.set_name(g.name);
  w.set_workers(g.workers);
  w.set_busy_ratio(g.busy_ratio);
  w.set_mem_total(g.mem_total);
  w.set_mem_free(g.mem_free);
  w.set_budget(g.budget);
  for (const auto& k : g.resident_keys) w.add_resident_keys(k);
  w.set_resident_bytes(g.resident_bytes);
  w.set_proofs(g.proofs);
  w.set_faults(g.faults);
  for (const auto& k : g.resident_shifts) w.add_resident_shifts(k);
  w.set_shifted_bytes(g.shifted_bytes);
}

gpu_status from_wire(const wire::GpuStatus& w) {
  gpu_status g;
  g.device = w.device();
  g.name = w.name();
  g.workers = w.workers();
  g.busy_ratio = w.busy_ratio();
  g.mem_total = w.mem_total();
  g.mem_free = w.mem_free();
  g.budget = w.budget();
  g.resident_keys.assign(w.resident_keys().begin(), w.resident_keys().end());
  g.resident_bytes = w.resident_bytes();
  g.proofs = w.proofs();
  g.faults = w.faults();
  g.resident_shifts.assign(w.resident_shifts().begin(), w.resident_shifts().end());
  g.shifted_bytes = w.shifted_bytes();
  return g;
}

}  // namespace cuzk::proto
