#include "gateway/proof_json.hpp"

#include "proto/names.hpp"

namespace cuzk::gateway {

using json = nlohmann::json;

namespace {

json phases_json(const proto::partition_status& s) {
  auto secs = [](std::uint64_t a, std::uint64_t b) { return b > a ? double(b - a) / 1e9 : 0.0; };
  return {{"synthesis_s", secs(s.synth_start_ns, s.synth_end_ns)},
          {"witness_s", double(s.witness_us) / 1e6},
          {"wait_for_prover_s", secs(s.synth_end_ns, s.prove_start_ns)},
          {"prove_s", secs(s.prove_start_ns, s.prove_end_ns)}};
}

}  // namespace

json status_json(const proto::job_status& st) {
  json j = {{"id", st.job_id}, {"state", std::string(proto::name(st.state))}};
  if (!st.error.empty()) j["error"] = st.error;
  return j;
}

json outcome_json(const client::job_outcome& o) {
  if (const auto* st = std::get_if<proto::job_status>(&o)) return status_json(*st);
  const auto& pr = std::get<proto::proof_reply>(o);
  json parts = json::array();
  for (const auto& p : pr.partitions) {
    json part = {{"proof", json::parse(p.proof_json)}, {"public_signals", json::parse(p.public_json)}};
    if (p.phases) part["phases"] = phases_json(*p.phases);
    parts.push_back(std::move(part));
  }
  json j = {{"id", pr.job_id}, {"state", "done"}};
  j["proof"] = parts[0]["proof"];
  j["public_signals"] = parts[0]["public_signals"];
  if (parts[0].contains("phases")) j["phases"] = parts[0]["phases"];
  if (parts.size() > 1) j["partitions"] = parts;
  return j;
}

bool finished(const client::job_outcome& o) {
  const auto* st = std::get_if<proto::job_status>(&o);
  return !st || st->state == proto::job_state::done || st->state == proto::job_state::failed;
}

json parse_bounded(const std::string& body, int max_depth) {
  return json::parse(body, [max_depth](int depth, json::parse_event_t e, json&) {
    const bool opens = e == json::parse_event_t::object_start || e == json::parse_event_t::array_start;
    if (opens && depth >= max_depth)  // depth: the containers around the one it opens
      throw json::other_error::create(501, "the JSON is nested deeper than " + std::to_string(max_depth) + " levels",
                                      nullptr);
    return true;
  });
}

}  // namespace cuzk::gateway
