// Failpoints for crash tests: failpoint("slot.fill.cas") kills the calling
// process with SIGKILL when armed for that name. Armed by the environment
// (CUZK_FAILPOINT=NAME or NAME:N for the N-th hit) or by arm_failpoint.
// Unarmed, a failpoint is one relaxed load.
#pragma once

#include <string_view>

namespace cuzk::shm {

void failpoint(const char* name) noexcept;
void arm_failpoint(std::string_view name, unsigned hit = 1) noexcept;
void disarm_failpoints() noexcept;

}  // namespace cuzk::shm
