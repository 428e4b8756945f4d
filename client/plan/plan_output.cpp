#include "client/plan/plan_output.hpp"

#include <cstdio>

namespace cuzk::plan {

namespace {

std::string hex(std::uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));  // as cuzk-shm status prints it
  return buf;
}

std::string log2_name(std::uint64_t n) {
  unsigned l = 0;
  while ((std::uint64_t(1) << l) < n) ++l;
  return (std::uint64_t(1) << l) == n ? "2^" + std::to_string(l) : std::to_string(n);
}

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

}  // namespace

nlohmann::json to_json(const node_plan& p) {
  using nlohmann::json;
  json j;
  j["cuzk_plan"] = 1;
  json pool;
  if (!p.in.pool_name.empty()) pool["name"] = p.in.pool_name;
  json slots = json::array();
  for (const class_plan& c : p.classes)
    slots.push_back({{"count", c.count}, {"constraints", c.domain}, {"witness", c.witness}});
  pool["slots"] = slots;
  pool["jobs"] = p.jobs;
  pool["leases"] = p.leases;
  if (!p.in.hugepages.empty()) pool["hugepages"] = p.in.hugepages;
  j["pool"] = pool;
  json classes = json::array();
  for (const class_plan& c : p.classes)
    classes.push_back({{"count", c.count},
                       {"domain", c.domain},
                       {"witness", c.witness},
                       {"slot_bytes", c.slot_bytes},
                       {"keys", c.keys}});
  j["slot_classes"] = classes;
  j["pool_bytes"] = p.pool_bytes;
  j["layout_hash"] = hex(p.layout_hash);
  j["shm"] = {{"pool_bytes", p.in.hugepages.empty() ? p.pool_bytes : 0},
              {"srs_bytes", p.srs_bytes},
              {"total_bytes", p.shm_bytes},
              {"hugepages_2m", p.hugepages_2m},
              {"pool_on_hugepages", !p.in.hugepages.empty()}};
  j["host"] = {{"ram_bytes", p.in.host_ram},
               {"needed_bytes", p.host_bytes},
               {"needed_bytes_drop", p.host_bytes_drop},
               {"synth_workers", p.synth_workers},
               {"synth_worker_bytes", p.synth_worker_bytes},
               {"server_bytes", p.server_bytes},
               {"cpu_cores", p.in.cpu_cores}};
  json gpus = json::array();
  for (std::size_t g = 0; g < p.gpus.size(); ++g) {
    const gpu_plan& gp = p.gpus[g];
    json keys = json::array();
    for (std::size_t i = 0; i < gp.keys.size(); ++i) {
      const residency& r = gp.keys[i];
      keys.push_back({{"key", p.in.keys[i].name},
                      {"resident", r.resident},
                      {"bases_bytes", r.bases},
                      {"footprint_bytes", r.footprint},
                      {"copies", r.copies},
                      {"copies_bytes", r.copies_bytes},
                      {"working_bytes_per_worker", r.working_each},
                      {"workers_that_fit", r.workers_fit},
                      {"evicts", r.evicted}});
    }
    gpus.push_back({{"index", g},
                    {"name", gp.gpu.name},
                    {"memory_bytes", gp.gpu.memory},
                    {"budget_bytes", gp.budget},
                    {"workers", p.in.workers_per_gpu},
                    {"keys", keys},
                    {"resident_at_end", gp.resident_at_end}});
  }
  j["gpus"] = gpus;
  json keys = json::array();
  for (std::size_t i = 0; i < p.keys.size(); ++i) {
    const key_input& k = p.in.keys[i];
    const key_plan& kp = p.keys[i];
    keys.push_back({{"key", k.name},
                    {"source", k.source},
                    {"curve", std::string(curves::name(k.dims.curve))},
                    {"constraints", k.constraints},
                    {"domain", k.dims.domain},
                    {"n_vars", k.dims.n_vars},
                    {"n_public", k.n_public},
                    {"zkey_bytes", k.zkey_bytes},
                    {"slot_class", kp.slot_class},
                    {"host_bytes",
                     {{"srs_region", kp.host.srs_region},
                      {"server", kp.host.server},
                      {"srs_region_drop", kp.host.srs_region_drop},
                      {"drop_refused", kp.host.drop_refused}}},
                    {"proof_seconds", kp.proof_seconds},
                    {"partitions_per_minute", kp.partitions_per_minute},
                    {"timings_source", kp.timings_source}});
  }
  j["keys"] = keys;
  j["does_not_fit"] = p.does_not_fit;
  j["notes"] = p.notes;
  return j;
}

std::string to_text(const node_plan& p) {
  std::string o;
  auto line = [&o](const std::string& s) { o += s + "\n"; };
  line("keys");
  for (std::size_t i = 0; i < p.keys.size(); ++i) {
    const key_input& k = p.in.keys[i];
    line("  " + k.name + " (" + k.source + "): " + std::string(curves::display_name(k.dims.curve)) + ", domain " +
         log2_name(k.dims.domain) + ", " + std::to_string(k.dims.n_vars) + " witness values" +
         (k.constraints ? ", " + std::to_string(k.constraints) + " constraints" : "") + ", .zkey " + gib(k.zkey_bytes));
  }
  line("");
  line("pool (cuzk-shm create --plan FILE with this plan's --json)");
  for (std::size_t c = 0; c < p.classes.size(); ++c) {
    const class_plan& cp = p.classes[c];
    std::string keys;
    for (const std::string& k : cp.keys) keys += (keys.empty() ? "" : ", ") + k;
    line("  class " + std::to_string(c) + ": " + std::to_string(cp.count) + " x " + log2_name(cp.domain) +
         " (witness " + std::to_string(cp.witness) + "), " + gib(cp.slot_bytes) + " a slot, " +
         gib(cp.count * cp.slot_bytes) + " in all  [" + keys + "]");
  }
  line("  " + std::to_string(p.leases) + " leases, " + std::to_string(p.jobs) + " jobs; region " + gib(p.pool_bytes) +
       ", layout hash " + hex(p.layout_hash));
  line("");
  line("/dev/shm and huge pages");
  line("  /dev/shm: " + gib(p.shm_bytes) + " (" +
       (p.in.hugepages.empty() ? "pool " + gib(p.pool_bytes) + " + " : std::string()) + "SRS regions " +
       gib(p.srs_bytes) + ")");
  line("  huge pages: " + std::to_string(p.hugepages_2m) + " x 2 MiB for the pool (vm.nr_hugepages" +
       std::string(p.in.hugepages.empty() ? ", if created with --hugepages)" : ")"));
  line("");
  if (p.gpus.empty()) {
    line("devices: none (CPU backend, " + std::to_string(p.in.cpu_cores) + " cores)");
  } else {
    line("devices (" + std::to_string(p.in.workers_per_gpu) + " proving workers a GPU, reserve " + gib(p.in.reserve) +
         ", --msm-copies " + std::to_string(p.in.msm_copies) + ")");
    for (std::size_t g = 0; g < p.gpus.size(); ++g) {
      const gpu_plan& gp = p.gpus[g];
      line("  GPU " + std::to_string(g) + (gp.gpu.name.empty() ? "" : " " + gp.gpu.name) + ": " + gib(gp.gpu.memory) +
           ", budget " + gib(gp.budget));
      for (std::size_t i = 0; i < gp.keys.size(); ++i) {
        const residency& r = gp.keys[i];
        line("    " + p.in.keys[i].name + ": " + (r.resident ? "resident" : "streamed") + "; bases " + gib(r.bases) +
             ", with MSM temporaries and copies " + gib(r.footprint) + "; copies " + r.copies + " (" +
             gib(r.copies_bytes) + "); a/b/c and proof buffers " + gib(r.working_each) +
             " a worker; workers that fit: " + std::to_string(r.workers_fit));
      }
    }
  }
  line("");
  line("host RAM");
  line("  synth workers: " + std::to_string(p.synth_workers) + " x " + gib(p.synth_worker_bytes) +
       " (their slots are in the pool)");
  line("  server: " + gib(p.server_bytes) + (p.gpus.empty() ? " (the CPU backend decodes its keys)" : ""));
  for (std::size_t i = 0; i < p.keys.size(); ++i) {
    const key_host& h = p.keys[i].host;
    line("  key " + p.in.keys[i].name + ": SRS region " + gib(h.srs_region) + " with host_copy = keep, " +
         (h.drop_refused.empty() ? gib(h.srs_region_drop) + " with drop (its points only on the GPUs and in its file)"
                                 : "the same with drop (" + h.drop_refused + ")"));
  }
  line("  total: " + gib(p.host_bytes) + " with host_copy = keep, " + gib(p.host_bytes_drop) + " with drop" +
       (p.in.host_ram ? "; the host has " + gib(p.in.host_ram) : ""));
  line("");
  line("throughput (one key at a time)");
  for (std::size_t i = 0; i < p.keys.size(); ++i) {
    const key_plan& kp = p.keys[i];
    if (kp.proof_seconds <= 0) {
      line("  " + p.in.keys[i].name + ": no measured timings for this curve and device");
      continue;
    }
    line("  " + p.in.keys[i].name + ": " + fmt("%.3f", kp.proof_seconds) + " s a partition, " +
         fmt("%.1f", kp.partitions_per_minute) + " partitions/min  [" + kp.timings_source + "]");
  }
  line("");
  if (p.does_not_fit.empty()) {
    line("everything fits");
  } else {
    line("does not fit");
    for (const std::string& s : p.does_not_fit) line("  - " + s);
  }
  for (const std::string& s : p.notes) line("note: " + s);
  return o;
}

}  // namespace cuzk::plan
