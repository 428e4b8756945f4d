// A queue shared fairly between owners: one queue per owner, served round
// robin, so an owner with a thousand entries delays another's next entry by
// one turn, not by a thousand.
#pragma once

#include <cstddef>
#include <deque>
#include <map>
#include <optional>

namespace cuzk::server {

template <class Owner, class T>
class fair_queue {
 public:
  void push(const Owner& o, T v) {
    q_[o].push_back(std::move(v));
    ++size_;
  }
  /* The oldest entry of the owner after the one served last (wrapping), or nullopt when empty. */
  std::optional<T> pop() {
    if (q_.empty()) return std::nullopt;
    auto it = last_ ? q_.upper_bound(*last_) : q_.begin();
    if (it == q_.end()) it = q_.begin();
    T v = std::move(it->second.front());
    it->second.pop_front();
    last_ = it->first;
    if (it->second.empty()) q_.erase(it);
    --size_;
    return v;
  }
  std::size_t size() const noexcept { return size_; }
  std::size_t size_of(const Owner& o) const {
    auto it = q_.find(o);
    return it == q_.end() ? 0 : it->second.size();
  }

 private:
  std::map<Owner, std::deque<T>> q_;
  std::optional<Owner> last_;
  std::size_t size_ = 0;
};

}  // namespace cuzk::server
