#include "provers/proof_job.hpp"

#include <spdlog/fmt/fmt.h>

namespace cuzk::server {

shm::partition_timings partition_timings_of(const groth16::prove_timings& t, double verify_s, int gpu) noexcept {
  return {t.reported(verify_s), gpu < 0 ? -1 : gpu, 0};
}

std::string timings_log_fields(const groth16::prove_timings& t, double verify_s, double stage_s) {
  using groth16::timing;
  const auto r = t.reported(verify_s);
  const auto ms = [](std::uint64_t us) { return static_cast<double>(us) / 1e3; };
  std::string out = fmt::format("total_ms={:.1f}", ms(r[timing::total]));
  for (std::size_t i = 0; i < groth16::n_timings; ++i) {
    const auto p = static_cast<timing>(i);
    if (p == timing::cpu_prep) out += fmt::format(" msm_ms={:.1f}", t.msm * 1e3);
    if (p != timing::total) out += fmt::format(" {}_ms={:.1f}", groth16::name(p), ms(r[p]));
  }
  return out + fmt::format(" stage_ms={:.1f}", stage_s * 1e3);
}

}  // namespace cuzk::server
