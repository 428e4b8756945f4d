// The GPU timeline on the loop (timeline.hpp): each proven partition's phase
// spans under "gpu G / prover W" ("cpu / prover W" on the CPU backend), each
// synthesis under "synth worker NAME"; served as /trace.json and /timeline.
#include <cmath>
#include <optional>

#include "server.hpp"
#include "shm/lease.hpp"
#include "util/query.hpp"

namespace cuzk::server {

using util::query_value;
using util::seconds_of;

void server::note_proof_spans(const proof_done& d) {
  const auto& t = d.timings;
  const std::uint64_t base = t.origin_unix_ns ? t.origin_unix_ns : d.start_ns;
  const auto at = [&](double s) { return base + static_cast<std::uint64_t>(std::llround(std::max(0.0, s) * 1e9)); };
  const auto lane = timeline_.lane((d.gpu >= 0 ? "gpu " + std::to_string(d.gpu) : std::string("cpu")) + " / prover " +
                                   std::to_string(d.worker));
  const std::uint64_t job = d.what.job.index;
  timeline_.add({base, at(t.total), lane, span_kind::proof, 0, job, d.what.partition});
  for (const auto& s : t.span_list())
    timeline_.add({at(s.start), at(s.end), lane, kind_of(s.what), track_of(s.track), job, d.what.partition});
}

void server::note_synthesis(const peer& p, const proto::filled& f) {
  const auto word = slots_->word(f.slot);
  const auto e = slots_->entry(f.slot);
  /* FILLED, or PROVING already when a dispatch found the slot before its Filled was read */
  if (!word || !e || word->generation != f.generation ||
      (word->state != shm::slot_state::filled && word->state != shm::slot_state::proving))
    return;
  if (synth_noted_.size() <= f.slot) synth_noted_.resize(slots_->size(), 0);
  if (f.slot >= synth_noted_.size() || synth_noted_[f.slot] == f.generation + 1) return;  // a repeated Filled
  synth_noted_[f.slot] = f.generation + 1;
  const std::uint64_t end = (*e)->filled_ns, start = end - std::min(end, (*e)->synth_ns);
  if (!end) return;
  /* the name the worker's process took its lease under */
  std::string name = "pid " + std::to_string(p.cred.pid);
  const auto* leases = shm::lease_entries(*region_);
  for (std::uint32_t i = 0; i < region_->header().lease_capacity; ++i)
    if (leases[i].role == static_cast<std::uint32_t>(shm::role::worker) && leases[i].pid == p.cred.pid &&
        shm::is_alive(*region_, i)) {
      name = std::string(shm::field_text(leases[i].name));
      break;
    }
  const auto lane = timeline_.lane("synth worker " + name);
  timeline_.add({start, end, lane, span_kind::synthesis, 0, (*e)->job, (*e)->partition});
  // an installed circuit's generator runs first in its synthesis: drawn over it
  if (const auto w = std::min((*e)->witness_ns, end - start))
    timeline_.add({start, start + w, lane, span_kind::witness, 0, (*e)->job, (*e)->partition});
}

http_reply server::timeline_reply(std::string_view path, std::string_view query) const {
  const double keep = double(timeline_.keep().count());
  double since = keep;
  if (const auto v = query_value(query, "since")) {
    const auto s = seconds_of(*v);
    if (!s)
      return {400, "text/plain; charset=utf-8",
              "since: seconds (300), or with a unit (90s, 5m, 1h); the timeline keeps the last " +
                  std::to_string(timeline_.keep().count() / 60) + " minutes\n"};
    since = std::min(*s, keep);
  }
  const std::uint64_t now = shm::now_ns();
  const std::uint64_t from = now - std::min<std::uint64_t>(now, static_cast<std::uint64_t>(since * 1e9));
  if (path == "/trace.json") return {200, "application/json", trace_event_json(timeline_, from)};
  return {200, "text/html; charset=utf-8", timeline_page(timeline_, from, now)};
}

}  // namespace cuzk::server
