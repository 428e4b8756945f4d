#include "gateway/gateway_metrics.hpp"

#include <fmt/format.h>

namespace cuzk::gateway {

namespace {
constexpr double bucket_le[8] = {0.005, 0.01, 0.025, 0.05, 0.1, 0.2, 0.5, 1};
}

gateway_metrics& metrics() {
  static gateway_metrics m;
  return m;
}

void gateway_metrics::request(unsigned status, double seconds) {
  std::lock_guard l(mu_);
  ++by_status_[status];
  seconds_sum_ += seconds;
  ++count_;
  for (int i = 0; i < 8; ++i)
    if (seconds <= bucket_le[i]) ++latency_buckets_[i];
}

void gateway_metrics::refused(const std::string& bound) {
  std::lock_guard l(mu_);
  ++refused_[bound];
}

void gateway_metrics::webhook(const std::string& outcome) {
  std::lock_guard l(mu_);
  ++webhooks_[outcome];
}

std::string gateway_metrics::prometheus() {
  std::lock_guard l(mu_);
  std::string s;
  s += "# HELP cuzk_gateway_requests_total HTTP requests answered, by status\n# TYPE cuzk_gateway_requests_total "
       "counter\n";
  for (const auto& [code, n] : by_status_) s += fmt::format("cuzk_gateway_requests_total{{code=\"{}\"}} {}\n", code, n);
  s += "# HELP cuzk_gateway_request_seconds time from a request's header to its response\n"
       "# TYPE cuzk_gateway_request_seconds histogram\n";
  for (int i = 0; i < 8; ++i)
    s += fmt::format("cuzk_gateway_request_seconds_bucket{{le=\"{}\"}} {}\n", bucket_le[i], latency_buckets_[i]);
  s += fmt::format("cuzk_gateway_request_seconds_bucket{{le=\"+Inf\"}} {}\n", count_);
  s +=
      fmt::format("cuzk_gateway_request_seconds_sum {}\ncuzk_gateway_request_seconds_count {}\n", seconds_sum_, count_);
  s += "# HELP cuzk_gateway_refused_total requests and connections refused or closed, by the bound they met\n"
       "# TYPE cuzk_gateway_refused_total counter\n";
  for (const auto& [b, n] : refused_) s += fmt::format("cuzk_gateway_refused_total{{bound=\"{}\"}} {}\n", b, n);
  s +=
      "# HELP cuzk_gateway_webhooks_total webhook deliveries, by outcome\n# TYPE cuzk_gateway_webhooks_total counter\n";
  for (const auto& [o, n] : webhooks_) s += fmt::format("cuzk_gateway_webhooks_total{{outcome=\"{}\"}} {}\n", o, n);
  s += fmt::format("# TYPE cuzk_gateway_connections gauge\ncuzk_gateway_connections {}\n", connections.load());
  s += fmt::format(
      "# TYPE cuzk_gateway_tls_handshake_failures_total counter\ncuzk_gateway_tls_handshake_failures_total {}\n",
      tls_failures_.load());
  return s;
}

}  // namespace cuzk::gateway
