// A proof's timings into its job record and its log line (gpu-server/provers/proof_job.hpp).
#include <gtest/gtest.h>

#include "provers/proof_job.hpp"

namespace cuzk::server {
namespace {

groth16::prove_timings measured() {
  groth16::prove_timings t;
  t.h2d = 1e-3, t.ntt = 2e-3, t.msm_h = 3e-3, t.msm_l = 4e-3, t.msm_a = 5e-3, t.msm_b_g1 = 6e-3, t.msm_b_g2 = 7e-3;
  t.batch_add = 8e-3, t.split = 4e-3, t.assemble = 5e-3, t.total = 55e-3, t.msm = 30e-3;
  return t;
}

TEST(ProofTimings, TheRecordKeepsTheReportedPhasesAndTheDevice) {
  const auto gpu = partition_timings_of(measured(), 0.01, 2);
  EXPECT_EQ(gpu.phases, measured().reported(0.01));
  EXPECT_EQ(gpu.phases[groth16::timing::cpu_prep], 9000u);
  EXPECT_EQ(gpu.gpu, 2);
  EXPECT_EQ(partition_timings_of(measured(), 0.01, -7).gpu, -1) << "the CPU";
}

TEST(ProofTimings, TheLogLineNamesEveryPhaseInTheDocumentedOrder) {
  EXPECT_EQ(timings_log_fields(measured(), 0.01, 0.5),
            "total_ms=55.0 h2d_ms=1.0 ntt_ms=2.0 msm_h_ms=3.0 msm_l_ms=4.0 msm_a_ms=5.0 msm_b_g1_ms=6.0 "
            "msm_b_g2_ms=7.0 batch_add_ms=8.0 msm_ms=30.0 cpu_prep_ms=9.0 verify_ms=10.0 stage_ms=500.0");
}

}  // namespace
}  // namespace cuzk::server
