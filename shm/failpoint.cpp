#include "shm/failpoint.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <ctime>

namespace cuzk::shm {
namespace {

/* One armed name per process (crash tests arm one at a time). Plain storage,
   no allocation, so a forked child can arm it and be killed without touching
   the heap. */
struct armed_point {
  std::atomic<bool> armed{false};
  char name[64] = {};
  std::atomic<unsigned> remaining{0};
  failpoint_action action = failpoint_action::kill;
  unsigned slow_ms = 0;
  int count_fd = -1;
};

armed_point& point() noexcept {
  static armed_point p;
  return p;
}

void arm(std::string_view name, unsigned hit, failpoint_action action, unsigned slow_ms) noexcept {
  armed_point& p = point();
  p.armed.store(false, std::memory_order_relaxed);
  std::size_t n = name.size() < sizeof p.name - 1 ? name.size() : sizeof p.name - 1;
  std::memcpy(p.name, name.data(), n);
  p.name[n] = '\0';
  p.remaining.store(hit == 0 ? 1 : hit, std::memory_order_relaxed);
  p.action = action;
  p.slow_ms = slow_ms;
  p.armed.store(true, std::memory_order_release);
}

/* CUZK_FAILPOINT=NAME[:N[:kill|stall|slowMS]] and CUZK_FAILPOINT_COUNT=FILE, read once. */
const bool from_env = [] {
  if (const char* file = std::getenv("CUZK_FAILPOINT_COUNT"); file && *file) {
    point().count_fd = ::open(file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (point().count_fd >= 0) point().armed.store(true, std::memory_order_release);
  }
  if (const char* env = std::getenv("CUZK_FAILPOINT")) {
    std::string_view v(env);
    unsigned hit = 1;
    auto action = failpoint_action::kill;
    unsigned slow_ms = 0;
    const auto first = v.find(':');
    if (first != std::string_view::npos) {
      std::string_view rest = v.substr(first + 1);
      v = v.substr(0, first);
      const auto second = rest.find(':');
      hit = static_cast<unsigned>(std::strtoul(std::string(rest.substr(0, second)).c_str(), nullptr, 10));
      const auto act = second == std::string_view::npos ? std::string_view() : rest.substr(second + 1);
      if (act == "stall") action = failpoint_action::stall;
      if (act.starts_with("slow")) {
        action = failpoint_action::slow;
        slow_ms = static_cast<unsigned>(std::strtoul(std::string(act.substr(4)).c_str(), nullptr, 10));
      }
    }
    if (!v.empty()) arm(v, hit, action, slow_ms);
  }
  return true;
}();

}  // namespace

void failpoint(const char* name) noexcept {
  armed_point& p = point();
  if (!p.armed.load(std::memory_order_relaxed)) return;
  if (p.count_fd >= 0) {
    char line[80];
    std::size_t n = std::strlen(name);
    if (n > sizeof line - 2) n = sizeof line - 2;
    std::memcpy(line, name, n);
    line[n] = '\n';
    (void)!::write(p.count_fd, line, n + 1);  // one write: lines from concurrent processes never interleave
  }
  if (p.name[0] == '\0' || std::strcmp(p.name, name) != 0) return;
  if (p.action == failpoint_action::slow) {
    if (p.remaining.load(std::memory_order_relaxed) > 1) {
      p.remaining.fetch_sub(1, std::memory_order_acq_rel);
      return;
    }
    const timespec ts{static_cast<time_t>(p.slow_ms / 1000), static_cast<long>(p.slow_ms % 1000) * 1000000L};
    ::nanosleep(&ts, nullptr);
    return;
  }
  if (p.remaining.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    if (p.action == failpoint_action::kill) ::kill(::getpid(), SIGKILL);
    for (;;) ::pause();
  }
}

void arm_failpoint(std::string_view name, unsigned hit, failpoint_action action, unsigned slow_ms) noexcept {
  arm(name, hit, action, slow_ms);
}

void disarm_failpoints() noexcept {
  armed_point& p = point();
  p.name[0] = '\0';
  if (p.count_fd < 0) p.armed.store(false, std::memory_order_relaxed);
}

}  // namespace cuzk::shm
