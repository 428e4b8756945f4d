#include "provers/proof_timings.hpp"

#include <cmath>
#include <cstdio>

namespace cuzk::server {

namespace {

std::uint64_t us(double s) noexcept {
  return s > 0 && s < 1e9 ? static_cast<std::uint64_t>(std::llround(s * 1e6)) : 0;  // NaN and nonsense: 0
}

}  // namespace

shm::partition_timings partition_timings_of(const groth16::prove_timings& t, double verify_s, int gpu) noexcept {
  return {us(t.h2d),      us(t.ntt),       us(t.msm_h),        us(t.msm_l),  us(t.msm_a),
          us(t.msm_b_g1), us(t.msm_b_g2),  us(t.batch_add),    us(t.split + t.assemble),
          us(verify_s),   us(t.total),     gpu < 0 ? -1 : gpu, 0};
}

proto::partition_timings to_proto(const shm::partition_timings& t) noexcept {
  return {t.h2d_us,       t.ntt_us,      t.msm_h_us,  t.msm_l_us, t.msm_a_us, t.msm_b_g1_us,
          t.msm_b_g2_us,  t.batch_add_us, t.cpu_prep_us, t.verify_us, t.total_us};
}

std::string timings_log_fields(const groth16::prove_timings& t, double verify_s, double stage_s) {
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "total_ms=%.1f h2d_ms=%.1f ntt_ms=%.1f msm_h_ms=%.1f msm_l_ms=%.1f msm_a_ms=%.1f msm_b_g1_ms=%.1f "
                "msm_b_g2_ms=%.1f batch_add_ms=%.1f msm_ms=%.1f cpu_prep_ms=%.1f verify_ms=%.1f stage_ms=%.1f",
                t.total * 1e3, t.h2d * 1e3, t.ntt * 1e3, t.msm_h * 1e3, t.msm_l * 1e3, t.msm_a * 1e3, t.msm_b_g1 * 1e3,
                t.msm_b_g2 * 1e3, t.batch_add * 1e3, t.msm * 1e3, (t.split + t.assemble) * 1e3, verify_s * 1e3,
                stage_s * 1e3);
  return buf;
}

}  // namespace cuzk::server
