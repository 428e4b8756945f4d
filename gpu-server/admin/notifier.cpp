#include "admin/notifier.hpp"

#include <systemd/sd-daemon.h>

#include <cstdlib>

namespace cuzk::server {

notifier::notifier() : enabled_(std::getenv("NOTIFY_SOCKET") != nullptr) {
  std::uint64_t usec = 0;
  if (sd_watchdog_enabled(0, &usec) > 0) watchdog_ = std::chrono::microseconds(usec);
}

void notifier::ready(const std::string& status) {
  status_ = status;
  last_ping_ = last_status_ = clock::now();
  sd_notifyf(0, "READY=1\nSTATUS=%s", status.c_str());
}

void notifier::tick(const std::function<std::string()>& status) {
  if (!enabled_) return;
  const auto now = clock::now();
  if (watchdog_.count() && now - last_ping_ >= watchdog_ / 2) {
    sd_notify(0, "WATCHDOG=1");
    last_ping_ = now;
  }
  if (now - last_status_ < std::chrono::seconds(1)) return;
  last_status_ = now;
  if (auto s = status(); s != status_) {
    status_ = std::move(s);
    sd_notifyf(0, "STATUS=%s", status_.c_str());
  }
}

void notifier::stopping() { sd_notify(0, "STOPPING=1"); }

}  // namespace cuzk::server
