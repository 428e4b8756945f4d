// systemd's view of the server (sd_notify): READY=1 once the pool and the
// preloaded keys are registered and the queues rebuilt, STATUS= lines, and
// WATCHDOG=1 from the event loop at half of WatchdogSec, so a loop that
// stalls is restarted. Without systemd (no NOTIFY_SOCKET) every call is a no-op.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

namespace cuzk::server {

class notifier {
 public:
  notifier();
  void ready(const std::string& status);
  /* From the loop's timer: the watchdog when due; the status, computed only
     under systemd and at most once a second, when it changed. */
  void tick(const std::function<std::string()>& status);
  void stopping();

 private:
  using clock = std::chrono::steady_clock;
  bool enabled_ = false;  // NOTIFY_SOCKET is set
  std::chrono::microseconds watchdog_{0};
  clock::time_point last_ping_{}, last_status_{};
  std::string status_;
};

}  // namespace cuzk::server
