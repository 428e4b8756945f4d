// Failpoints for crash tests: failpoint("slot.fill.cas") kills the calling
// process with SIGKILL when armed for that name. Armed by the environment
// or by arm_failpoint:
//   CUZK_FAILPOINT=NAME[:N[:ACTION]]  at the N-th hit (default 1): kill
//                                     (SIGKILL, default) or stall (the
//                                     calling thread sleeps forever); or
//                                     slowMS: that hit and every later one
//                                     sleep MS milliseconds (a slow phase)
//   CUZK_FAILPOINT_COUNT=FILE         appends every hit's name to FILE (one
//                                     line, O_APPEND), to count the hits of
//                                     a workload before killing at a random one
// Unarmed and uncounted, a failpoint is one relaxed load.
#pragma once

#include <string_view>

namespace cuzk::shm {

enum class failpoint_action { kill, stall, slow };

void failpoint(const char* name) noexcept;
/* slow_ms: the sleep of failpoint_action::slow */
void arm_failpoint(std::string_view name, unsigned hit = 1, failpoint_action action = failpoint_action::kill,
                   unsigned slow_ms = 0) noexcept;
void disarm_failpoints() noexcept;

}  // namespace cuzk::shm
