#include "gateway/deadlines.hpp"

#include <sys/socket.h>

namespace cuzk::gateway {

namespace {
std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(deadlines::clock::now().time_since_epoch()).count();
}
}  // namespace

deadlines::armed::armed(deadlines& d, int fd) : d_(d) {
  std::lock_guard l(d_.mu_);
  it_ = d_.entries_.emplace(d_.entries_.end());
  it_->fd = fd;
}

deadlines::armed::~armed() {
  std::lock_guard l(d_.mu_);
  d_.entries_.erase(it_);
}

void deadlines::armed::arm(std::chrono::milliseconds in, const char* phase) {
  it_->phase = phase;
  it_->due_ns = now_ns() + std::chrono::duration_cast<std::chrono::nanoseconds>(in).count();
}

void deadlines::armed::disarm() { it_->due_ns = 0; }

const char* deadlines::armed::expired() const { return it_->expired ? it_->phase.load() : nullptr; }

deadlines::deadlines(void (*on_expiry)(const char*)) : on_expiry_(on_expiry), reaper_([this] { run(); }) {}

deadlines::~deadlines() {
  stop_ = true;
  reaper_.join();
}

void deadlines::run() {
  while (!stop_) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    const auto now = now_ns();
    std::lock_guard l(mu_);
    for (auto& e : entries_) {
      const auto due = e.due_ns.load();
      if (due == 0 || due > now || e.expired) continue;
      e.expired = true;
      ::shutdown(e.fd, SHUT_RDWR);
      on_expiry_(e.phase.load());
    }
  }
}

}  // namespace cuzk::gateway
