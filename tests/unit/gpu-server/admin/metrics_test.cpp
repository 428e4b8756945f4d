// The Prometheus text format and histogram buckets (metrics.hpp), and the
// Beast endpoint (metrics_http.hpp) on a real socket: GET, 404, 405, a port in use.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <thread>

#include "http_get.hpp"
#include "admin/metrics.hpp"
#include "admin/metrics_http.hpp"
#include "seed.hpp"

namespace cuzk::server {
namespace {

TEST(Metrics, HistogramBucketsAreInclusiveUpperBoundsAndCountEveryValue) {
  auto rng = test::rng(1);
  std::uniform_real_distribution<double> dist(0, 800);
  metrics::histogram h;
  std::vector<double> values;
  for (int i = 0; i < 1000; ++i) values.push_back(dist(rng) * (i % 3 ? 1e-3 : 1));  // both short and long ones
  values.push_back(0.005);  // exactly a bound: in that bucket (le is inclusive)
  values.push_back(600);
  for (double v : values) h.observe(v);
  h.observe(-1);
  h.observe(std::numeric_limits<double>::quiet_NaN());
  ASSERT_EQ(h.buckets().size(), metrics::duration_buckets.size() + 1);
  EXPECT_EQ(h.count(), values.size());
  double sum = 0;
  for (double v : values) sum += v;
  EXPECT_NEAR(h.sum(), sum, 1e-6 * sum);
  std::uint64_t cumulative = 0;
  for (std::size_t i = 0; i < h.bounds().size(); ++i) {
    cumulative += h.buckets()[i];
    std::uint64_t expected = 0;
    for (double v : values) expected += v <= h.bounds()[i];
    EXPECT_EQ(cumulative, expected) << "le=" << h.bounds()[i];
  }
  std::uint64_t over = 0;
  for (double v : values) over += v > 600;
  EXPECT_EQ(h.buckets().back(), over);
}

TEST(Metrics, TextFormatHasHelpTypeLabelsAndCumulativeBuckets) {
  metrics::writer w;
  w.family("cuzk_x_total", "counter", "Things.\nCounted.");
  w.sample("cuzk_x_total", {{"kind", "a\"b\\c\nd"}}, 3);
  w.family("cuzk_up", "gauge", "Up.");
  w.sample("cuzk_up", 0.25);
  const double b[] = {0.5, 2};
  metrics::histogram h(b);
  h.observe(0.5);
  h.observe(1);
  h.observe(7);
  w.family("cuzk_d_seconds", "histogram", "Durations.");
  w.sample("cuzk_d_seconds", {{"phase", "ntt"}}, h);
  EXPECT_EQ(w.text(),
            "# HELP cuzk_x_total Things.\\nCounted.\n"
            "# TYPE cuzk_x_total counter\n"
            "cuzk_x_total{kind=\"a\\\"b\\\\c\\nd\"} 3\n"
            "# HELP cuzk_up Up.\n"
            "# TYPE cuzk_up gauge\n"
            "cuzk_up 0.25\n"
            "# HELP cuzk_d_seconds Durations.\n"
            "# TYPE cuzk_d_seconds histogram\n"
            "cuzk_d_seconds_bucket{phase=\"ntt\",le=\"0.5\"} 1\n"
            "cuzk_d_seconds_bucket{phase=\"ntt\",le=\"2\"} 2\n"
            "cuzk_d_seconds_bucket{phase=\"ntt\",le=\"+Inf\"} 3\n"
            "cuzk_d_seconds_sum{phase=\"ntt\"} 8.5\n"
            "cuzk_d_seconds_count{phase=\"ntt\"} 3\n");
  EXPECT_EQ(metrics::format_value(0.005), "0.005");
  EXPECT_EQ(metrics::format_value(123456789), "123456789");
  EXPECT_EQ(metrics::format_value(std::numeric_limits<double>::infinity()), "+Inf");
  EXPECT_EQ(metrics::format_value(std::numeric_limits<double>::quiet_NaN()), "NaN");
}

TEST(MetricsHttp, ServesGetOnTheLoopAnswers404And405AndRefusesAPortInUse) {
  boost::asio::io_context io;
  metrics_http http(io, "127.0.0.1:0", [](std::string_view path, std::string_view query, std::optional<std::uint32_t>) {
    if (path == "/metrics") return http_reply{200, std::string(metrics::content_type), "cuzk_up 1\n"};
    if (path == "/query") return http_reply{200, "text/plain", std::string(query)};
    return http_reply{404, "text/plain", "no\n"};
  });
  const auto port = http.local_endpoint().port();
  ASSERT_NE(port, 0);
  http.start();
  auto guard = boost::asio::make_work_guard(io);
  std::thread loop([&] { io.run(); });
  auto r = test::http_request(port, "/metrics?x=1");
  EXPECT_EQ(r.status, 200u);
  EXPECT_EQ(r.content_type, metrics::content_type);
  EXPECT_EQ(r.body, "cuzk_up 1\n");
  EXPECT_EQ(test::http_request(port, "/query?since=300").body, "since=300");
  EXPECT_EQ(test::http_request(port, "/query").body, "");
  EXPECT_EQ(test::http_request(port, "/elsewhere").status, 404u);
  EXPECT_EQ(test::http_request(port, "/metrics", boost::beast::http::verb::post).status, 405u);
  try {
    metrics_http second(io, "127.0.0.1:" + std::to_string(port),
                        [](std::string_view, std::string_view, std::optional<std::uint32_t>) { return http_reply{}; });
    ADD_FAILURE() << "a second endpoint bound the same port";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot serve metrics on 127.0.0.1:" + std::to_string(port)),
              std::string::npos)
        << e.what();
  }
  auto none = [](std::string_view, std::string_view, std::optional<std::uint32_t>) { return http_reply{}; };
  EXPECT_THROW(metrics_http(io, "9464", none), std::runtime_error);
  EXPECT_THROW(metrics_http(io, "127.0.0.1:99999", none), std::runtime_error);
  guard.reset();
  io.stop();
  loop.join();
}

}  // namespace
}  // namespace cuzk::server
