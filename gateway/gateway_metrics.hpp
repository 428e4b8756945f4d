// The gateway's counters, served as Prometheus text at GET /metrics (to
// loopback peers only): requests by status, their latency, the refusals of
// each bound, the deadlines that closed a connection, webhook deliveries.
#pragma once

#include <atomic>
#include <map>
#include <mutex>
#include <string>

namespace cuzk::gateway {

class gateway_metrics {
 public:
  void request(unsigned status, double seconds);
  void refused(const std::string& bound);
  void webhook(const std::string& outcome);  // delivered, retried, failed, refused
  void tls_handshake_failed() { ++tls_failures_; }
  std::atomic<long> connections{0};
  std::string prometheus();

 private:
  std::mutex mu_;
  std::map<unsigned, unsigned long> by_status_;
  std::map<std::string, unsigned long> refused_, webhooks_;
  double seconds_sum_ = 0;
  unsigned long latency_buckets_[8] = {};  // ≤ 0.005, 0.01, 0.025, 0.05, 0.1, 0.2, 0.5, 1 s
  unsigned long count_ = 0;
  std::atomic<unsigned long> tls_failures_{0};
};

gateway_metrics& metrics();

}  // namespace cuzk::gateway
