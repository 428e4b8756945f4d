#include "shm/failpoint.hpp"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>

namespace cuzk::shm {
namespace {

/* One armed name per process (crash tests arm one at a time). Plain storage,
   no allocation, so a forked child can arm it and be killed without touching
   the heap. */
struct armed_point {
  std::atomic<bool> armed{false};
  char name[64] = {};
  std::atomic<unsigned> remaining{0};
};

armed_point& point() noexcept {
  static armed_point p;
  return p;
}

void arm(std::string_view name, unsigned hit) noexcept {
  armed_point& p = point();
  p.armed.store(false, std::memory_order_relaxed);
  std::size_t n = name.size() < sizeof p.name - 1 ? name.size() : sizeof p.name - 1;
  std::memcpy(p.name, name.data(), n);
  p.name[n] = '\0';
  p.remaining.store(hit == 0 ? 1 : hit, std::memory_order_relaxed);
  p.armed.store(true, std::memory_order_release);
}

/* CUZK_FAILPOINT=NAME or NAME:N, read once. */
const bool from_env = [] {
  if (const char* env = std::getenv("CUZK_FAILPOINT")) {
    std::string_view v(env);
    unsigned hit = 1;
    if (auto colon = v.rfind(':'); colon != std::string_view::npos) {
      hit = static_cast<unsigned>(std::strtoul(env + colon + 1, nullptr, 10));
      v = v.substr(0, colon);
    }
    if (!v.empty()) arm(v, hit);
  }
  return true;
}();

}  // namespace

void failpoint(const char* name) noexcept {
  armed_point& p = point();
  if (!p.armed.load(std::memory_order_relaxed)) return;
  if (std::strcmp(p.name, name) != 0) return;
  if (p.remaining.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    ::kill(::getpid(), SIGKILL);
    for (;;) ::pause();
  }
}

void arm_failpoint(std::string_view name, unsigned hit) noexcept { arm(name, hit); }

void disarm_failpoints() noexcept { point().armed.store(false, std::memory_order_relaxed); }

}  // namespace cuzk::shm
