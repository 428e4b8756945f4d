#include "gateway/key_limits.hpp"

#include <algorithm>

namespace cuzk::gateway {

key_limits::lease& key_limits::lease::operator=(lease&& o) noexcept {
  if (this != &o) {
    if (k_) k_->give_back(what_, who_);
    k_ = std::exchange(o.k_, nullptr);
    what_ = o.what_;
    who_ = std::move(o.who_);
  }
  return *this;
}

key_limits::lease::~lease() {
  if (k_) k_->give_back(what_, who_);
}

key_limits::lease key_limits::take(kind what, const std::string& who, unsigned limit) {
  std::lock_guard l(mu_);
  auto& n = held_[{what, who}];
  if (n >= limit) return {};
  ++n;
  return {this, what, who};
}

void key_limits::give_back(kind what, const std::string& who) {
  std::lock_guard l(mu_);
  const auto it = held_.find({what, who});
  if (it != held_.end() && --it->second == 0) held_.erase(it);
}

// tokens(t) = min(2·rate, tokens(t0) + rate·(t − t0)); a request takes one.
bool key_limits::admit(const std::string& who) {
  const auto now = std::chrono::steady_clock::now();
  std::lock_guard l(mu_);
  if (buckets_.size() > 100000) buckets_.clear();  // names come from the key directory; this only caps a leak
  auto [it, fresh] = buckets_.try_emplace(who, bucket{2 * rate_, now});
  auto& b = it->second;
  b.tokens = std::min(2 * rate_, b.tokens + rate_ * std::chrono::duration<double>(now - b.at).count());
  b.at = now;
  if (b.tokens < 1) return false;
  b.tokens -= 1;
  return true;
}

}  // namespace cuzk::gateway
