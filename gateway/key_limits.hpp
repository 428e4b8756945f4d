// Per API key and per source address: what each may hold at once
// (connections, long-polls, webhooks not yet delivered) and its request
// rate, a token bucket of `rate` a second holding up to twice that.
#pragma once

#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

namespace cuzk::gateway {

class key_limits {
 public:
  enum class kind { connection, long_poll, webhook, address };
  /* Held while it lives; empty when the count was at its limit (nothing taken). */
  class lease {
   public:
    lease() = default;
    lease(key_limits* k, kind what, std::string who) : k_(k), what_(what), who_(std::move(who)) {}
    lease(lease&& o) noexcept : k_(std::exchange(o.k_, nullptr)), what_(o.what_), who_(std::move(o.who_)) {}
    lease& operator=(lease&& o) noexcept;
    ~lease();
    explicit operator bool() const { return k_ != nullptr; }

   private:
    key_limits* k_ = nullptr;
    kind what_ = kind::connection;
    std::string who_;
  };

  explicit key_limits(double rate) : rate_(rate) {}
  lease take(kind what, const std::string& who, unsigned limit);
  /* One request of key `who`: false when its bucket is empty. */
  bool admit(const std::string& who);

 private:
  void give_back(kind what, const std::string& who);
  struct bucket {
    double tokens;
    std::chrono::steady_clock::time_point at;
  };
  double rate_;
  std::mutex mu_;
  std::map<std::pair<kind, std::string>, unsigned> held_;
  std::map<std::string, bucket> buckets_;
};

}  // namespace cuzk::gateway
