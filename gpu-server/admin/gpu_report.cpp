#include "admin/gpu_report.hpp"

#include <algorithm>
#include <cmath>

#include "proto/rules.hpp"

namespace cuzk::server {

std::vector<proto::gpu_status> gpu_report(const std::vector<gpu_status>& gpus, bool with_keys) {
  std::vector<proto::gpu_status> out;
  std::size_t key_bytes = 0;
  for (const auto& g : gpus) {
    if (out.size() == proto::max_gpus) break;
    if (g.device < 0 || g.device >= static_cast<int>(proto::max_gpus)) continue;
    proto::gpu_status p;
    p.device = g.device;
    p.name = g.name.substr(0, proto::max_gpu_name_bytes);
    if (proto::check_text("name", p.name, proto::max_gpu_name_bytes)) p.name.clear();  // cut inside a character
    p.workers = g.workers;
    p.busy_ratio = std::isnan(g.busy_ratio) ? 0 : std::clamp(g.busy_ratio, 0.0, 1.0);
    p.mem_total = g.mem_total;
    p.mem_free = std::min(g.mem_free, g.mem_total);
    p.budget = g.budget;
    p.resident_bytes = g.resident_bytes;
    p.proofs = g.proofs;
    p.faults = g.faults;
    p.shifted_bytes = std::min(g.shifted_bytes, g.resident_bytes);
    if (with_keys)
      for (std::size_t i = 0; i < g.resident_keys.size(); ++i) {
        const std::string& k = g.resident_keys[i];
        std::string sh = i < g.resident_shifts.size() ? g.resident_shifts[i] : "";
        if (proto::check_text("shifts", sh, proto::max_shifts_text_bytes)) sh = "?";
        if (p.resident_keys.size() == proto::max_resident_keys || key_bytes + k.size() + sh.size() > gpu_key_bytes)
          break;
        if (proto::check_token("key", k, proto::max_key_id_bytes)) continue;
        p.resident_keys.push_back(k);
        p.resident_shifts.push_back(std::move(sh));
        key_bytes += k.size() + p.resident_shifts.back().size();
      }
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace cuzk::server
