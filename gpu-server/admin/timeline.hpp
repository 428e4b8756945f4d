// The GPU timeline: the last minutes of per-partition phase spans (each
// proving worker's h2d, NTT, MSMs and batch additions from the engine's
// prove_timings; each synthesis worker's synthesis), kept on the server's
// loop in a ring bounded in time and in entries, and served on the metrics
// endpoint as Chrome trace-event JSON (/trace.json) and as one
// self-contained HTML page with an inline SVG (/timeline).
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "groth16/engine.hpp"

namespace cuzk::server {

/* A proof's whole prove call, a synthesis, the witness generation that began it (an installed circuit's), or
   one phase of a proof (kind_of: groth16::phase, in its order). */
enum class span_kind : std::uint8_t { proof, synthesis, witness };
inline constexpr unsigned first_phase_kind = 3;
inline constexpr std::size_t n_span_kinds = first_phase_kind + groth16::n_phases;
std::string_view name(span_kind k);
constexpr span_kind kind_of(groth16::phase p) {
  return static_cast<span_kind>(first_phase_kind + static_cast<unsigned>(p));
}

/* The row of a lane a span is drawn on: 0 the proof or the synthesis; 1 + phase for a phase (batch_add: its MSM's). */
constexpr std::uint8_t track_of(groth16::phase p) { return static_cast<std::uint8_t>(1 + static_cast<unsigned>(p)); }
inline constexpr std::uint8_t n_tracks = 1 + groth16::n_phases;

struct timeline_span {
  std::uint64_t start_ns = 0, end_ns = 0;  // CLOCK_REALTIME
  std::uint32_t lane = 0;                  // timeline::lane_name
  span_kind kind = span_kind::proof;
  std::uint8_t track = 0;
  std::uint64_t job = 0;  // the job record's index
  std::uint32_t partition = 0;
};

class timeline {
 public:
  static constexpr std::size_t max_lanes = 256;
  static constexpr std::size_t default_max_spans = std::size_t(1) << 18;  // ~10 MiB of spans

  explicit timeline(std::chrono::seconds keep, std::size_t max_spans = default_max_spans);

  /* The lane of that name, made on first use; past max_lanes names, one shared lane "other lanes". */
  std::uint32_t lane(std::string_view name);
  const std::string& lane_name(std::uint32_t lane) const { return lanes_.at(lane); }
  /* Lanes of synthesis workers are named "synth worker NAME"; the others are provers'. */
  static bool is_synth_lane(std::string_view name) { return name.rfind("synth worker ", 0) == 0; }

  /* Keeps the span; forgets those that ended more than keep before it ended, and the oldest past max_spans. */
  void add(const timeline_span& s);
  /* The spans that end after from_ns, in the order they were added. */
  std::vector<timeline_span> since(std::uint64_t from_ns) const;
  std::size_t size() const { return spans_.size(); }
  std::chrono::seconds keep() const { return keep_; }

 private:
  std::chrono::seconds keep_;
  std::size_t max_spans_;
  std::deque<timeline_span> spans_;
  std::vector<std::string> lanes_;
  std::map<std::string, std::uint32_t, std::less<>> by_name_;
};

/* The lanes that have spans in `spans`: provers' first, then synthesis workers', each by name (numbers in
   names compared as numbers: "gpu 2" before "gpu 10"). */
std::vector<std::uint32_t> lanes_in(const timeline& t, const std::vector<timeline_span>& spans);

/* Chrome trace-event JSON (the "JSON Object Format"): one process a lane (process_name metadata), one thread
   a track (thread_name metadata), an "X" event a span with ts and dur in microseconds since the Unix epoch
   and args {job, partition}. Opens in Perfetto and chrome://tracing. */
std::string trace_event_json(const timeline& t, std::uint64_t from_ns);

/* One HTML page with an inline SVG and no scripts or external resources: a labelled lane a worker (its busy
   share beside the name), bars coloured by kind with a legend, a time axis over [from_ns, to_ns]; where
   no bar is drawn the worker was idle. The SVG's lanes carry data-lane, data-y0 and data-y1 (pixels) and
   the plot data-x0, data-width, data-from-ns and data-to-ns, so that a rendering can be checked. */
std::string timeline_page(const timeline& t, std::uint64_t from_ns, std::uint64_t to_ns);

}  // namespace cuzk::server
