#include "admin/node_status.hpp"

#include <algorithm>
#include <cstdint>

#include "admin/gpu_report.hpp"
#include "job/circuit_store.hpp"

namespace cuzk::server {

// Every client sees the GPUs (load and memory help it plan); only operators
// their resident key ids (a key id is the hash of a key file, so a client
// holding a file could tell which circuits other users are proving), the
// slots and the workers.
void node_status::describe(proto::status_reply& st, bool operator_view) const {
  st.hung_timeout_ms = static_cast<std::uint32_t>(std::min<std::int64_t>(c_.opt.hung_timeout.count(), UINT32_MAX));
  st.gpus = gpu_report(c_.backend.gpus(), operator_view);
  if (!operator_view) return;
  for (std::uint64_t i = 0; i < c_.slots.size(); ++i) {
    auto w = c_.slots.word(i);
    if (!w) continue;
    st.slots.push_back({i, c_.slots.class_of(i), static_cast<proto::slot_state>(static_cast<int>(w->state) + 1),
                        w->generation, w->owner});
  }
  c_.pool_workers.describe(st);
  st.keys = key_memory();
}

void node_status::capacity(proto::capacity& cap) const {
  const auto& hdr = c_.region.header();
  const auto n = std::min<std::uint32_t>(hdr.n_classes, shm::max_slot_classes);
  std::vector<std::uint32_t> free(n, 0);
  for (std::uint64_t i = 0; i < c_.slots.size(); ++i)
    if (auto w = c_.slots.word(i); w && w->state == shm::slot_state::free && c_.slots.class_of(i) < n)
      ++free[c_.slots.class_of(i)];
  for (std::uint32_t c = 0; c < n; ++c)
    cap.classes.push_back(
        {c, hdr.classes[c].domain, hdr.classes[c].witness, static_cast<std::uint32_t>(hdr.classes[c].count), free[c]});
  cap.partitions_per_minute = c_.proven.per_minute();
  const auto now = std::chrono::steady_clock::now();
  if (circuits_read_ == std::chrono::steady_clock::time_point{} || now - circuits_read_ > std::chrono::seconds(2)) {
    circuits_.clear();
    for (const auto& c : job::list_circuits(c_.opt.pool)) {
      if (circuits_.size() == proto::max_capacity_circuits) break;
      circuits_.push_back({c.name, c.kind_name(), c.key_id});
    }
    circuits_read_ = now;
  }
  cap.circuits = circuits_;
}

std::vector<proto::key_memory> node_status::key_memory() const {
  const auto gpus = c_.backend.gpus();
  std::vector<proto::key_memory> v;
  for (const auto& k : c_.keys.host_copies()) {
    std::uint64_t device = 0;
    for (const auto& g : gpus)
      for (std::size_t i = 0; i < g.resident_keys.size() && i < g.resident_key_bytes.size(); ++i)
        if (g.resident_keys[i] == k.key_id) device += g.resident_key_bytes[i];
    v.push_back({k.key_id, k.policy == job::host_copy::drop ? "drop" : "keep", k.host_bytes, device});
  }
  return v;
}

}  // namespace cuzk::server
