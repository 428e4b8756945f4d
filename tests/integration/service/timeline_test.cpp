// The GPU timeline of a real cuzk-gpu-server (CPU backend, two synthesis
// workers): after a few jobs /trace.json holds every proof's phases inside it
// and every synthesis before its proof, in the trace-event format's fields;
// `cuzk trace` writes the same and says so when the endpoint is unreachable;
// /timeline, rendered by headless Chromium, shows one band a lane, bars where
// the spans are and blank between proofs (timeline_png.py reads the PNG).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <thread>

#include "harness.hpp"
#include "http_get.hpp"
#include "run.hpp"
#include "seed.hpp"

namespace cuzk::test {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;

void write(const fs::path& p, const std::string& text) {
  std::ofstream f(p, std::ios::binary);
  f << text;
}

TEST(Timeline, ProofsAndSynthesesAreTracedAndTheRenderedPageShowsALaneAWorker) {
  service svc({"2x4096"});
  auto server = svc.start_server({}, {"--metrics", "127.0.0.1:0", "--timeline-minutes", "5"});
  const auto port = metrics_port(svc.dir());
  ASSERT_NE(port, 0) << server_logs(svc);
  auto w1 = svc.start_worker("w1");
  auto w2 = svc.start_worker("w2");
  auto c = svc.connect();
  const std::string circuit = "chain:size=300";
  const int jobs = 4;
  for (int i = 0; i < jobs; ++i) {
    c.submit(native_submit("t" + std::to_string(i), circuit, seed() + i, "timeline_test"));
    auto out = c.wait("t" + std::to_string(i), 120s);
    ASSERT_NE(std::get_if<proto::proof_reply>(&out), nullptr) << server_logs(svc);
    std::this_thread::sleep_for(300ms);  // an idle gap between proofs, to be seen on the page
  }

  /* the trace: the format's required fields, a lane a worker, each proof's phases inside it */
  const auto r = http_request(port, "/trace.json?since=300");
  ASSERT_EQ(r.status, 200u) << r.body;
  EXPECT_EQ(r.content_type, "application/json");
  const auto trace = json::parse(r.body);
  std::map<int, std::string> lanes;
  std::map<std::pair<int, int>, std::string> rows;
  std::vector<json> x;
  for (const auto& e : trace.at("traceEvents")) {
    for (const char* f : {"name", "ph", "ts", "pid", "tid"}) ASSERT_TRUE(e.contains(f)) << f << " missing: " << e;
    ASSERT_TRUE(e["name"].is_string() && e["ph"].is_string() && e["ts"].is_number() && e["pid"].is_number_integer() &&
                e["tid"].is_number_integer())
        << e;
    if (e["ph"] == "M") {
      if (e["name"] == "process_name") lanes[e["pid"]] = e["args"]["name"];
      if (e["name"] == "thread_name") rows[{e["pid"], e["tid"]}] = e["args"]["name"];
      continue;
    }
    ASSERT_EQ(e["ph"], "X") << e;
    ASSERT_TRUE(e.contains("dur") && e["dur"].is_number() && e["dur"].get<double>() >= 0) << e;
    ASSERT_TRUE(lanes.count(e["pid"])) << "an event before its lane is named: " << e;
    ASSERT_TRUE(rows.count(std::pair<int, int>(e["pid"], e["tid"]))) << "an event on an unnamed row: " << e;
    x.push_back(e);
  }
  std::set<std::string> names;
  for (const auto& [pid, n] : lanes) names.insert(n);
  EXPECT_TRUE(names.count("cpu / prover 0")) << r.body;
  for (const auto& n : names)
    EXPECT_TRUE(n == "cpu / prover 0" || n == "synth worker w1" || n == "synth worker w2") << n;

  struct proof {
    double ts = -1, end = -1, synth_end = -1;
    std::set<std::string> phases;
  };
  std::map<std::int64_t, proof> by_job;
  for (const auto& e : x)
    if (e["name"] == "proof")
      by_job[e["args"]["job"]].ts = e["ts"],
      by_job[e["args"]["job"]].end = e["ts"].get<double>() + e["dur"].get<double>();
  ASSERT_EQ(by_job.size(), std::size_t(jobs)) << r.body;
  int syntheses = 0;
  for (const auto& e : x) {
    auto& p = by_job[e["args"]["job"]];
    const double ts = e["ts"], end = ts + e["dur"].get<double>();
    if (e["name"] == "synthesis") {
      ++syntheses;
      p.synth_end = end;
      EXPECT_LE(end, p.ts + 1) << "a synthesis ends after its proof started: " << e;
    } else if (e["name"] != "proof") {
      p.phases.insert(e["name"]);
      EXPECT_GE(ts, p.ts - 1) << e;
      EXPECT_LE(end, p.end + 1) << e;
      const std::pair<int, int> row{e["pid"], e["tid"]};
      EXPECT_EQ(rows[row], e["name"]) << e;
    }
  }
  EXPECT_EQ(syntheses, jobs);
  for (const auto& [job, p] : by_job) {
    EXPECT_GT(p.synth_end, 0) << "job " << job << " has no synthesis";
    EXPECT_EQ(p.phases,
              (std::set<std::string>{"split", "ntt", "msm_a", "msm_b_g1", "msm_l", "msm_b_g2", "msm_h", "assemble"}))
        << "job " << job;
  }
  EXPECT_EQ(http_request(port, "/trace.json?since=soon").status, 400u);

  /* cuzk trace: the same events into a file; clear errors */
  const auto out = svc.dir() / "trace.json";
  const auto cli =
      run(cli_bin() + " trace --metrics 127.0.0.1:" + std::to_string(port) + " --since 5m -o " + out.string());
  EXPECT_EQ(cli.rc, 0) << cli.err;
  std::size_t cli_x = 0;
  const auto written = json::parse(read_all(out));
  for (const auto& e : written.at("traceEvents")) cli_x += e["ph"] == "X";
  EXPECT_EQ(cli_x, x.size());
  const auto down = run(cli_bin() + " trace --metrics 127.0.0.1:1 --since 5m");
  EXPECT_EQ(down.rc, 3) << down.err;
  EXPECT_NE(down.err.find("cannot reach the metrics endpoint at 127.0.0.1:1"), std::string::npos) << down.err;
  const auto nowhere = run(cli_bin() + " trace --since 5m");
  EXPECT_EQ(nowhere.rc, 2);
  EXPECT_NE(nowhere.err.find("--metrics HOST:PORT"), std::string::npos) << nowhere.err;
  EXPECT_EQ(run(cli_bin() + " trace --metrics 127.0.0.1:" + std::to_string(port) + " --since yesterday").rc, 2);

  /* the page over the jobs' time (a second before the first synthesis to now), rendered and looked at */
  double first_us = 1e300;
  for (const auto& e : x) first_us = std::min(first_us, e["ts"].get<double>());
  const double now_us =
      std::chrono::duration<double, std::micro>(std::chrono::system_clock::now().time_since_epoch()).count();
  const int since = int((now_us - first_us) / 1e6) + 2;
  const auto page = http_request(port, "/timeline?since=" + std::to_string(since));
  ASSERT_EQ(page.status, 200u);
  EXPECT_EQ(page.content_type, "text/html; charset=utf-8");
  EXPECT_EQ(page.body.find("<script"), std::string::npos);
  write(svc.dir() / "timeline.html", page.body);
  std::smatch m;
  ASSERT_TRUE(std::regex_search(page.body, m, std::regex("<svg [^>]*width=\"(\\d+)\" height=\"(\\d+)\""))) << page.body;
  const int width = std::stoi(m[1]), height = std::stoi(m[2]);

  ASSERT_EQ(run("command -v chromium").rc, 0)
      << "chromium is not installed: scripts/setup.sh installs Debian's chromium for this test";
  const auto shot = svc.dir() / "timeline.png";
  const auto chrome =
      run("timeout 60 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars "
          "--force-device-scale-factor=1 --user-data-dir=" +
          (svc.dir() / "chromium").string() + " --window-size=" + std::to_string(width) + "," +
          std::to_string(height + 20) + " --screenshot=" + shot.string() + " file://" +
          (svc.dir() / "timeline.html").string());
  ASSERT_TRUE(fs::exists(shot)) << "chromium made no screenshot (rc " << chrome.rc << "): " << chrome.err;
  const auto check = run("python3 " CUZK_TIMELINE_PNG " " + shot.string() + " " +
                         (svc.dir() / "timeline.html").string() + " " + out.string());
  EXPECT_EQ(check.rc, 0) << check.out << check.err;
  if (const char* keep = std::getenv("CUZK_TIMELINE_KEEP"))  // to look at the page and the screenshot
    for (const auto& f : {shot, svc.dir() / "timeline.html", out})
      fs::copy_file(f, fs::path(keep) / f.filename(), fs::copy_options::overwrite_existing);
  std::printf("%s%s", cli.err.c_str(), check.out.c_str());
}

}  // namespace
}  // namespace cuzk::test
