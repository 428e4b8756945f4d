// Partitions proven per minute over the last minutes (a capacity reply's
// rate and its estimated wait): the completion times of the last five
// minutes, and the rate over that window, or over the time since the start
// while the server is younger.
#pragma once

#include <algorithm>
#include <chrono>
#include <deque>

namespace cuzk::server {

class throughput {
 public:
  using clock = std::chrono::steady_clock;
  static constexpr std::chrono::minutes window{5};

  explicit throughput(clock::time_point started = clock::now()) : started_(started) {}
  void proven(clock::time_point t = clock::now()) {
    times_.push_back(t);
    trim(t);
  }
  double per_minute(clock::time_point now = clock::now()) const {
    trim(now);
    const auto span = std::min<clock::duration>(window, now - started_);
    const double minutes = std::chrono::duration<double, std::ratio<60>>(span).count();
    return minutes > 0 ? double(times_.size()) / std::max(minutes, 1.0 / 60) : 0;
  }

 private:
  void trim(clock::time_point now) const {
    while (!times_.empty() && (now - times_.front() > window || times_.size() > 1'000'000)) times_.pop_front();
  }
  clock::time_point started_;
  mutable std::deque<clock::time_point> times_;
};

}  // namespace cuzk::server
