// The GPU timeline's store (timeline.hpp): bounded in time and in entries,
// lanes made once; its Chrome trace-event JSON (every event has name, ph, ts,
// pid and tid; "X" events their dur; metadata names each lane and row) and
// its SVG page (a lane a worker, a legend, no scripts).
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

#include "admin/timeline.hpp"

namespace cuzk::server {
namespace {

constexpr std::uint64_t s = 1'000'000'000ULL;
constexpr std::uint64_t t0 = 1'700'000'000ULL * s;  // a Unix time

timeline_span span(std::uint32_t lane, span_kind k, std::uint8_t track, std::uint64_t from, std::uint64_t to,
                   std::uint64_t job = 1) {
  return {from, to, lane, k, track, job, 0};
}

TEST(Timeline, ForgetsSpansThatEndedBeforeItsWindowAndKeepsAtMostItsBound) {
  timeline t(std::chrono::seconds(60), 5);
  const auto l = t.lane("gpu 0 / prover 0");
  t.add(span(l, span_kind::proof, 0, t0, t0 + 1 * s));
  t.add(span(l, span_kind::proof, 0, t0 + 2 * s, t0 + 3 * s));
  EXPECT_EQ(t.size(), 2u);
  t.add(span(l, span_kind::proof, 0, t0 + 61 * s, t0 + 62 * s));  // the first ended 61 s before: out of the window
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t.since(0).front().start_ns, t0 + 2 * s);
  for (int i = 0; i < 10; ++i) t.add(span(l, kind_of(groth16::phase::ntt), 3, t0 + 62 * s + i, t0 + 62 * s + i + 1));
  EXPECT_EQ(t.size(), 5u);  // the bound in entries
  EXPECT_EQ(t.since(0).back().start_ns, t0 + 62 * s + 9);
  /* since(): the spans that end after it */
  EXPECT_EQ(t.since(t0 + 62 * s + 8).size(), 2u);
}

TEST(Timeline, LanesAreMadeOnceAndBoundedInNumber) {
  timeline t(std::chrono::seconds(60));
  const auto a = t.lane("synth worker w1");
  EXPECT_EQ(t.lane("synth worker w1"), a);
  EXPECT_NE(t.lane("gpu 0 / prover 1"), a);
  EXPECT_EQ(t.lane_name(a), "synth worker w1");
  EXPECT_TRUE(timeline::is_synth_lane("synth worker w1"));
  EXPECT_FALSE(timeline::is_synth_lane("gpu 0 / prover 1"));
  std::set<std::uint32_t> ids;
  for (int i = 0; i < 1000; ++i) ids.insert(t.lane("synth worker churn" + std::to_string(i)));
  EXPECT_LE(ids.size(), timeline::max_lanes);
  EXPECT_EQ(t.lane_name(*ids.rbegin()), "other lanes");
}

TEST(Timeline, LanesAreShownProversFirstThenSynthesisWorkersInNaturalOrder) {
  timeline t(std::chrono::seconds(60));
  std::vector<timeline_span> v;
  for (const auto* n :
       {"synth worker w10", "gpu 10 / prover 0", "synth worker w2", "gpu 2 / prover 1", "gpu 2 / prover 0"})
    v.push_back(span(t.lane(n), span_kind::proof, 0, t0, t0 + 1));
  std::vector<std::string> names;
  for (const auto l : lanes_in(t, v)) names.push_back(t.lane_name(l));
  EXPECT_EQ(names, (std::vector<std::string>{"gpu 2 / prover 0", "gpu 2 / prover 1", "gpu 10 / prover 0",
                                             "synth worker w2", "synth worker w10"}));
}

/* one proof on a GPU lane (its phases, a batch addition inside msm_a) and one synthesis */
timeline example() {
  timeline t(std::chrono::seconds(600));
  const auto g = t.lane("gpu 0 / prover 1"), w = t.lane("synth worker \"w\\1\"");
  t.add(span(w, span_kind::synthesis, 0, t0, t0 + s / 2, 7));
  t.add(span(g, span_kind::proof, 0, t0 + s, t0 + 2 * s, 7));
  t.add(span(g, kind_of(groth16::phase::h2d), track_of(groth16::phase::h2d), t0 + s, t0 + s + 100'000'000, 7));
  t.add(span(g, kind_of(groth16::phase::ntt), track_of(groth16::phase::ntt), t0 + s + 50'000'000, t0 + s + 300'000'000,
             7));
  t.add(span(g, kind_of(groth16::phase::msm_a), track_of(groth16::phase::msm_a), t0 + s + 300'000'000,
             t0 + s + 900'000'123, 7));
  t.add(span(g, kind_of(groth16::phase::batch_add), track_of(groth16::phase::msm_a), t0 + s + 300'000'000,
             t0 + s + 310'000'000, 7));
  return t;
}

TEST(TraceJson, EveryEventHasTheRequiredFieldsAndEachLaneAndRowIsNamed) {
  const auto t = example();
  const auto j = nlohmann::json::parse(trace_event_json(t, 0));
  ASSERT_TRUE(j.contains("traceEvents"));
  ASSERT_TRUE(j["traceEvents"].is_array());
  std::map<int, std::string> processes;
  std::map<std::pair<int, int>, std::string> threads;
  std::vector<nlohmann::json> complete;
  for (const auto& e : j["traceEvents"]) {
    ASSERT_TRUE(e.contains("name") && e["name"].is_string()) << e;
    ASSERT_TRUE(e.contains("ph") && e["ph"].is_string()) << e;
    ASSERT_TRUE(e.contains("ts") && e["ts"].is_number()) << e;
    ASSERT_TRUE(e.contains("pid") && e["pid"].is_number_integer()) << e;
    ASSERT_TRUE(e.contains("tid") && e["tid"].is_number_integer()) << e;
    const auto ph = e["ph"].get<std::string>();
    if (ph == "M") {
      if (e["name"] == "process_name") processes[e["pid"]] = e["args"]["name"];
      if (e["name"] == "thread_name") threads[{e["pid"], e["tid"]}] = e["args"]["name"];
    } else {
      ASSERT_EQ(ph, "X") << e;
      ASSERT_TRUE(e.contains("dur") && e["dur"].is_number()) << e;
      EXPECT_GE(e["dur"].get<double>(), 0) << e;
      complete.push_back(e);
    }
  }
  ASSERT_EQ(processes.size(), 2u);
  EXPECT_EQ(processes.begin()->second, "gpu 0 / prover 1");        // provers first
  EXPECT_EQ(processes.rbegin()->second, "synth worker \"w\\1\"");  // escaped and read back as it was
  ASSERT_EQ(complete.size(), 6u);
  for (const auto& e : complete) {
    EXPECT_TRUE(processes.count(e["pid"])) << e;
    EXPECT_TRUE(threads.count({e["pid"], e["tid"]})) << "an event on an unnamed row: " << e;
    EXPECT_EQ(e["args"]["job"], 7) << e;
  }
  /* ts and dur in microseconds since the Unix epoch, to the nanosecond */
  const auto msm = std::find_if(complete.begin(), complete.end(), [](const auto& e) { return e["name"] == "msm_a"; });
  ASSERT_NE(msm, complete.end());
  EXPECT_DOUBLE_EQ((*msm)["ts"].get<double>(), double((t0 + s + 300'000'000) / 1000));
  EXPECT_NEAR((*msm)["dur"].get<double>(), 600'000.123, 1e-3);
  /* the batch addition on msm_a's row, inside it: events on one row nest */
  const auto batch =
      std::find_if(complete.begin(), complete.end(), [](const auto& e) { return e["name"] == "batch_add"; });
  ASSERT_NE(batch, complete.end());
  EXPECT_EQ((*batch)["tid"], (*msm)["tid"]);
  const std::pair<int, int> row{(*msm)["pid"], (*msm)["tid"]};
  EXPECT_EQ(threads[row], "msm_a");
  EXPECT_GE((*batch)["ts"].get<double>(), (*msm)["ts"].get<double>());
  EXPECT_LE((*batch)["ts"].get<double>() + (*batch)["dur"].get<double>(),
            (*msm)["ts"].get<double>() + (*msm)["dur"].get<double>());
  /* since: only what ends after it */
  const auto later = nlohmann::json::parse(trace_event_json(t, t0 + s));
  int x = 0;
  for (const auto& e : later["traceEvents"]) x += e["ph"] == "X";
  EXPECT_EQ(x, 5);
}

TEST(TimelinePage, OneSelfContainedSvgWithALaneAWorkerALegendAndAnAxis) {
  const auto t = example();
  const auto page = timeline_page(t, t0 - s, t0 + 3 * s);
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(page.find("<script"), std::string::npos);
  EXPECT_EQ(page.find("href="), std::string::npos);
  EXPECT_EQ(page.find("src="), std::string::npos);
  EXPECT_NE(page.find("<svg"), std::string::npos);
  const std::regex lane("<g class=\"lane\" data-lane=\"([^\"]*)\" data-y0=\"(\\d+)\" data-y1=\"(\\d+)\"");
  std::vector<std::string> lanes;
  int last_y1 = 0;
  for (auto it = std::sregex_iterator(page.begin(), page.end(), lane); it != std::sregex_iterator(); ++it) {
    lanes.push_back((*it)[1]);
    EXPECT_GT(std::stoi((*it)[2]), last_y1);  // lanes do not overlap
    last_y1 = std::stoi((*it)[3]);
  }
  EXPECT_EQ(lanes, (std::vector<std::string>{"gpu 0 / prover 1", "synth worker &quot;w\\1&quot;"}));
  for (std::size_t k = 0; k < n_span_kinds; ++k)
    EXPECT_NE(page.find("data-kind=\"" + std::string(name(static_cast<span_kind>(k))) + "\""), std::string::npos);
  /* the prover lane was busy 1 s of the window's 4 */
  EXPECT_NE(page.find("busy 25%"), std::string::npos);
  EXPECT_NE(page.find("msm_a job 7 partition 0"), std::string::npos);
  /* axis ticks */
  EXPECT_NE(page.find(">0 s<"), std::string::npos);
  EXPECT_NE(page.find(">2 s<"), std::string::npos);
  /* an empty window still draws the page */
  const auto empty = timeline_page(t, t0 + 100 * s, t0 + 160 * s);
  EXPECT_NE(empty.find("no spans in this window"), std::string::npos);
  EXPECT_EQ(empty.find("class=\"lane\""), std::string::npos);
}

TEST(TimelinePage, ManySpansCloserThanAPixelBecomeOneBar) {
  timeline t(std::chrono::seconds(600));
  const auto l = t.lane("cpu / prover 0");
  for (int i = 0; i < 20000; ++i) t.add(span(l, span_kind::proof, 0, t0 + i * 1000, t0 + i * 1000 + 900));
  const auto page = timeline_page(t, t0, t0 + 100 * s);
  std::size_t rects = 0;
  for (auto at = page.find("<rect"); at != std::string::npos; at = page.find("<rect", at + 1)) ++rects;
  EXPECT_LT(rects, 40u);
  EXPECT_NE(page.find("20000 proof spans"), std::string::npos);
}

}  // namespace
}  // namespace cuzk::server
