// The Grafana dashboard (systemd/grafana-dashboard.json, issue 23 item 5):
// every series its queries name exists in a server's /metrics — a server
// with every optional part on (network clients, a spool, a cluster database),
// so a renamed or dropped metric fails here rather than as an empty panel.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <cstring>
#include <map>
#include <set>
#include <sstream>

#include "harness.hpp"
#include "http_get.hpp"
#include "pg_server.hpp"

namespace cuzk::test {
namespace {

using namespace std::chrono_literals;

TEST(Dashboard, EverySeriesItQueriesExistsInMetrics) {
  std::ifstream f(CUZK_DASHBOARD);
  ASSERT_TRUE(f) << CUZK_DASHBOARD;
  const auto dash = nlohmann::json::parse(f);
  std::set<std::string> queried;
  const std::regex series("cuzk_[a-z0-9_]+");
  std::size_t panels = 0;
  for (const auto& p : dash.at("panels")) {
    ++panels;
    ASSERT_FALSE(p.at("targets").empty()) << p.at("title");
    for (const auto& t : p.at("targets")) {
      const auto expr = t.at("expr").get<std::string>();
      for (std::sregex_iterator it(expr.begin(), expr.end(), series), end; it != end; ++it) queried.insert(it->str());
    }
  }
  EXPECT_GE(panels, 10u);
  EXPECT_GE(queried.size(), 20u);

  pg_server pg;
  service svc({"1x4096"});
  auto server = svc.start_server(
      {}, {"--metrics", "127.0.0.1:0", "--network-endpoint", "tcp://127.0.0.1:*", "--insecure-loopback", "--spool-dir",
           (svc.dir() / "spool").string(), "--cluster-database", pg.conninfo()});
  const auto port = metrics_port(svc.dir());
  ASSERT_NE(port, 0) << server_logs(svc);
  const auto text = http_request(port, "/metrics").body;
  std::set<std::string> families;
  const std::regex type_line("^# TYPE (cuzk_[a-z0-9_]+) ([a-z]+)$");
  std::map<std::string, std::string> kind;
  std::istringstream lines(text);
  for (std::string l; std::getline(lines, l);)
    if (std::smatch m; std::regex_match(l, m, type_line)) kind[m[1]] = m[2];
  for (const auto& q : queried) {
    std::string family = q;
    for (const char* suffix : {"_bucket", "_sum", "_count"})
      if (family.ends_with(suffix) && kind.count(family.substr(0, family.size() - std::strlen(suffix))) &&
          kind[family.substr(0, family.size() - std::strlen(suffix))] == "histogram")
        family = family.substr(0, family.size() - std::strlen(suffix));
    EXPECT_TRUE(kind.count(family)) << "the dashboard queries " << q << ", which /metrics does not export";
  }
}

}  // namespace
}  // namespace cuzk::test
