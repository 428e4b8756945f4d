#include "notifier.hpp"

#include <systemd/sd-daemon.h>

namespace cuzk::server {

notifier::notifier() {
  std::uint64_t usec = 0;
  if (sd_watchdog_enabled(0, &usec) > 0) watchdog_ = std::chrono::microseconds(usec);
}

void notifier::ready(const std::string& status) {
  status_ = status;
  last_ping_ = last_status_ = clock::now();
  sd_notifyf(0, "READY=1\nSTATUS=%s", status.c_str());
}

void notifier::tick(const std::string& status) {
  const auto now = clock::now();
  if (watchdog_.count() && now - last_ping_ >= watchdog_ / 2) {
    sd_notify(0, "WATCHDOG=1");
    last_ping_ = now;
  }
  if (status != status_ && now - last_status_ >= std::chrono::seconds(1)) {
    status_ = status;
    last_status_ = now;
    sd_notifyf(0, "STATUS=%s", status.c_str());
  }
}

void notifier::stopping() { sd_notify(0, "STOPPING=1"); }

}  // namespace cuzk::server
