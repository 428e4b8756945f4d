#include "admin/timeline.hpp"

#include <algorithm>
#include <cstdio>
#include <set>

namespace cuzk::server {

std::string_view name(span_kind k) {
  switch (k) {
    case span_kind::proof:
      return "proof";
    case span_kind::synthesis:
      return "synthesis";
    case span_kind::witness:
      return "witness";
    default:
      return groth16::name(static_cast<groth16::phase>(static_cast<unsigned>(k) - first_phase_kind));
  }
}

timeline::timeline(std::chrono::seconds keep, std::size_t max_spans)
    : keep_(std::max(keep, std::chrono::seconds(1))), max_spans_(std::max<std::size_t>(max_spans, 1)) {}

std::uint32_t timeline::lane(std::string_view name) {
  if (auto it = by_name_.find(name); it != by_name_.end()) return it->second;
  if (lanes_.size() + 1 >= max_lanes) name = "other lanes";
  if (auto it = by_name_.find(name); it != by_name_.end()) return it->second;
  const auto i = static_cast<std::uint32_t>(lanes_.size());
  lanes_.emplace_back(name);
  by_name_.emplace(std::string(name), i);
  return i;
}

void timeline::add(const timeline_span& s) {
  spans_.push_back(s);
  const auto keep_ns = static_cast<std::uint64_t>(keep_.count()) * 1'000'000'000ULL;
  while (spans_.size() > max_spans_ || (spans_.front().end_ns + keep_ns < s.end_ns)) spans_.pop_front();
}

std::vector<timeline_span> timeline::since(std::uint64_t from_ns) const {
  std::vector<timeline_span> v;
  for (const auto& s : spans_)
    if (s.end_ns > from_ns) v.push_back(s);
  return v;
}

namespace {

/* "gpu 2" < "gpu 10": runs of digits compare by value */
bool natural_less(std::string_view a, std::string_view b) {
  std::size_t i = 0, j = 0;
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  while (i < a.size() && j < b.size()) {
    if (digit(a[i]) && digit(b[j])) {
      std::size_t i1 = i, j1 = j;
      while (i1 < a.size() && digit(a[i1])) ++i1;
      while (j1 < b.size() && digit(b[j1])) ++j1;
      auto x = a.substr(i, i1 - i), y = b.substr(j, j1 - j);
      while (x.size() > 1 && x[0] == '0') x.remove_prefix(1);
      while (y.size() > 1 && y[0] == '0') y.remove_prefix(1);
      if (x.size() != y.size()) return x.size() < y.size();
      if (x != y) return x < y;
      i = i1, j = j1;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i, ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

void append_json_string(std::string& out, std::string_view s) {
  out += '"';
  for (const unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  out += '"';
}

std::string track_name(bool synth, std::uint8_t track) {
  if (track == 0) return synth ? "synthesis" : "proof";
  return std::string(groth16::name(static_cast<groth16::phase>(track - 1)));
}

}  // namespace

std::vector<std::uint32_t> lanes_in(const timeline& t, const std::vector<timeline_span>& spans) {
  std::set<std::uint32_t> ids;
  for (const auto& s : spans) ids.insert(s.lane);
  std::vector<std::uint32_t> v(ids.begin(), ids.end());
  std::sort(v.begin(), v.end(), [&](std::uint32_t a, std::uint32_t b) {
    const auto &x = t.lane_name(a), &y = t.lane_name(b);
    if (timeline::is_synth_lane(x) != timeline::is_synth_lane(y)) return !timeline::is_synth_lane(x);
    return natural_less(x, y);
  });
  return v;
}

std::string trace_event_json(const timeline& t, std::uint64_t from_ns) {
  const auto spans = t.since(from_ns);
  const auto lanes = lanes_in(t, spans);
  std::vector<std::uint32_t> pid_of;  // lane → pid (1-based: the order shown)
  for (std::size_t i = 0; i < lanes.size(); ++i) {
    if (pid_of.size() <= lanes[i]) pid_of.resize(lanes[i] + 1, 0);
    pid_of[lanes[i]] = static_cast<std::uint32_t>(i + 1);
  }
  std::string out = "{\"traceEvents\":[";
  bool first = true;
  char buf[256];
  auto sep = [&] {
    if (!first) out += ",\n";
    first = false;
  };
  auto metadata = [&](const char* what, std::uint32_t pid, unsigned tid, const char* key, std::string_view value,
                      bool quoted) {
    sep();
    std::snprintf(buf, sizeof buf,
                  "{\"name\":\"%s\",\"ph\":\"M\",\"ts\":0,\"pid\":%u,\"tid\":%u,\"args\":{\"%s\":", what, pid, tid,
                  key);
    out += buf;
    if (quoted)
      append_json_string(out, value);
    else
      out += value;
    out += "}}";
  };
  for (std::size_t i = 0; i < lanes.size(); ++i) {
    const auto pid = static_cast<std::uint32_t>(i + 1);
    const auto& lane = t.lane_name(lanes[i]);
    const bool synth = timeline::is_synth_lane(lane);
    metadata("process_name", pid, 0, "name", lane, true);
    metadata("process_sort_index", pid, 0, "sort_index", std::to_string(pid), false);
    std::vector<bool> used(n_tracks, false);
    for (const auto& s : spans)
      if (s.lane == lanes[i] && s.track < n_tracks) used[s.track] = true;
    for (unsigned tr = 0; tr < n_tracks; ++tr)
      if (used[tr]) {
        metadata("thread_name", pid, tr, "name", track_name(synth, static_cast<std::uint8_t>(tr)), true);
        metadata("thread_sort_index", pid, tr, "sort_index", std::to_string(tr), false);
      }
  }
  /* "X" events; on each track a batch addition lies inside its MSM, so events nest as the format wants */
  for (const auto& s : spans) {
    sep();
    const auto end = std::max(s.end_ns, s.start_ns);
    std::snprintf(buf, sizeof buf,
                  "{\"name\":\"%.*s\",\"cat\":\"%s\",\"ph\":\"X\",\"ts\":%llu.%03llu,\"dur\":%llu.%03llu,\"pid\":%u,"
                  "\"tid\":%u,\"args\":{\"job\":%llu,\"partition\":%u}}",
                  int(name(s.kind).size()), name(s.kind).data(),
                  s.kind == span_kind::synthesis || s.kind == span_kind::witness ? "synth" : "prove",
                  (unsigned long long)(s.start_ns / 1000), (unsigned long long)(s.start_ns % 1000),
                  (unsigned long long)((end - s.start_ns) / 1000), (unsigned long long)((end - s.start_ns) % 1000),
                  pid_of[s.lane], unsigned(s.track), (unsigned long long)s.job, s.partition);
    out += buf;
  }
  std::snprintf(buf, sizeof buf,
                "],\n\"displayTimeUnit\":\"ms\",\"otherData\":{\"source\":\"cuzk-gpu-server\",\"clock\":"
                "\"microseconds since the Unix epoch\",\"since_ns\":%llu,\"keep_seconds\":%lld}}\n",
                (unsigned long long)from_ns, (long long)t.keep().count());
  out += buf;
  return out;
}

}  // namespace cuzk::server
