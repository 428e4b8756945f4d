#include "admin/gpu_report.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "proto/rules.hpp"

namespace cuzk::server {

std::vector<proto::gpu_status> gpu_report(std::vector<proto::gpu_status> gpus, bool with_keys) {
  std::vector<proto::gpu_status> out;
  std::size_t key_bytes = 0;
  for (auto& p : gpus) {
    if (out.size() == proto::max_gpus) break;
    if (p.device < 0 || p.device >= static_cast<int>(proto::max_gpus)) continue;
    p.name.resize(std::min(p.name.size(), proto::max_gpu_name_bytes));
    if (proto::check_text("name", p.name, proto::max_gpu_name_bytes)) p.name.clear();  // cut inside a character
    p.busy_ratio = std::isnan(p.busy_ratio) ? 0 : std::clamp(p.busy_ratio, 0.0, 1.0);
    p.mem_free = std::min(p.mem_free, p.mem_total);
    p.shifted_bytes = std::min(p.shifted_bytes, p.resident_bytes);
    auto keys = std::exchange(p.resident_keys, {});
    auto shifts = std::exchange(p.resident_shifts, {});
    auto bytes = std::exchange(p.resident_key_bytes, {});
    if (with_keys)
      for (std::size_t i = 0; i < keys.size(); ++i) {
        const std::string& k = keys[i];
        std::string sh = i < shifts.size() ? shifts[i] : "";
        if (proto::check_text("shifts", sh, proto::max_shifts_text_bytes)) sh = "?";
        if (p.resident_keys.size() == proto::max_resident_keys || key_bytes + k.size() + sh.size() > gpu_key_bytes)
          break;
        if (proto::check_token("key", k, proto::max_key_id_bytes)) continue;
        p.resident_keys.push_back(k);
        p.resident_shifts.push_back(std::move(sh));
        p.resident_key_bytes.push_back(i < bytes.size() ? bytes[i] : 0);
        key_bytes += k.size() + p.resident_shifts.back().size();
      }
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace cuzk::server
