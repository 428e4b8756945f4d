#include "gateway/http_api.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>

#include "client/lib/connection.hpp"
#include "client/lib/errors.hpp"
#include "proto/limits.hpp"
#include "proto/names.hpp"
#include "util/query.hpp"
#include "util/utf8.hpp"

namespace cuzk::gateway {

namespace {

using json = nlohmann::json;

http_reply json_reply(unsigned status, const json& j) { return {status, "application/json", j.dump(), {}}; }

/* The circuits a node has installed: what POST /v1/proofs may name. */
json circuits_json(const proto::capacity& cap) {
  json circuits = json::array();
  for (const auto& ci : cap.circuits) circuits.push_back({{"name", ci.name}, {"generator", ci.generator}});
  return circuits;
}

/* The node's refusal as HTTP: its code chooses the status, its sentence is the detail. */
http_reply from_node(const client::server_error& e) {
  using c = proto::error_code;
  const unsigned status = [&] {
    switch (e.code()) {
      case c::unknown_job:
      case c::unknown_circuit:
        return 404u;
      case c::bad_request:
      case c::malformed:
      case c::too_large:
        return 400u;
      case c::conflict:
        return 409u;
      case c::busy:
      case c::table_full:
        return 429u;
      case c::unavailable:
        return 503u;
      default:
        return 502u;
    }
  }();
  return problem(status, std::string(proto::name(e.code())), e.message());
}

json phases_json(const proto::partition_status& s) {
  auto secs = [](std::uint64_t a, std::uint64_t b) { return b > a ? double(b - a) / 1e9 : 0.0; };
  json j = {{"synthesis_s", secs(s.synth_start_ns, s.synth_end_ns)},
            {"witness_s", double(s.witness_us) / 1e6},
            {"wait_for_prover_s", secs(s.synth_end_ns, s.prove_start_ns)},
            {"prove_s", secs(s.prove_start_ns, s.prove_end_ns)}};
  return j;
}

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

}  // namespace

http_reply problem(unsigned status, const std::string& title, const std::string& detail) {
  json j = {{"type", "about:blank"}, {"title", title}, {"status", status}, {"detail", util::printable(detail, 2048)}};
  return {status, "application/problem+json", j.dump(), {}};
}

http_reply http_api::handle(const http_request& r) {
  const auto q = r.target.find('?');
  const std::string path = r.target.substr(0, q);
  const std::string query = q == std::string::npos ? "" : r.target.substr(q + 1);
  if (!path.starts_with("/v1/")) return problem(404, "not found", "the API is under /v1/");
  std::string_view auth = r.authorization;
  if (!auth.starts_with("Bearer "))
    return problem(401, "unauthorized", "an API key is needed: Authorization: Bearer TOKEN");
  const auto key = keys_.name_of(auth.substr(7));
  if (!key) return problem(401, "unauthorized", "unknown or revoked API key");
  client::options o;
  o.on_behalf_of = *key;
  o.attempts = 1;
  try {
    client::connection c(endpoint_, o);
    if (path == "/v1/circuits" && r.method == "GET") {  // what POST /v1/proofs may name
      return json_reply(200, {{"circuits", circuits_json(c.capacity())}});
    }
    if (path == "/v1/capacity" && r.method == "GET") {
      const auto cap = c.capacity();
      return json_reply(200, {{"accepting", cap.accepting},
                              {"refusal", cap.refusal},
                              {"partitions_per_minute", cap.partitions_per_minute},
                              {"estimated_wait_s", cap.estimated_wait_s},
                              {"jobs_held", cap.jobs_held},
                              {"jobs_limit", cap.jobs_limit},
                              {"circuits", circuits_json(cap)}});
    }
    if (path == "/v1/proofs" && r.method == "POST") {
      json body;
      try {
        body = json::parse(r.body);
      } catch (const json::exception& e) {
        return problem(400, "bad request", std::string("the body is not JSON: ") + e.what());
      }
      if (!body.is_object() || !body.contains("circuit") || !body["circuit"].is_string() || !body.contains("inputs") ||
          !body["inputs"].is_object())
        return problem(400, "bad request", "expected {\"circuit\": NAME, \"inputs\": {...}}");
      proto::submit s;
      s.job_id = r.idempotency_key.empty() ? client::random_job_id() : r.idempotency_key;
      s.client = "http:" + *key;
      const auto prio = body.value("priority", std::string("normal"));
      if (prio == "high")
        s.priority = proto::priority::high;
      else if (prio == "low")
        s.priority = proto::priority::low;
      else if (prio != "normal")
        return problem(400, "bad request", "priority is low, normal or high");
      s.work = proto::installed_work{body["circuit"].get<std::string>(), body["inputs"].dump()};
      const auto a = c.submit(s);
      json j = {{"id", s.job_id}, {"state", std::string(proto::name(a.state))}, {"created", a.created}};
      return {202, "application/json", j.dump(), {{"Location", "/v1/proofs/" + s.job_id}}};
    }
    if (path.starts_with("/v1/proofs/")) {
      const std::string id = path.substr(11);
      if (r.method == "DELETE") return json_reply(200, status_json(c.cancel(id)));
      if (r.method == "GET") {
        if (const auto w = util::query_value(query, "wait")) {
          const auto s = util::seconds_of(*w);
          if (!s) return problem(400, "bad request", "wait is seconds: 30, 30s or 1m");
          const auto ms =
              std::chrono::milliseconds(static_cast<long long>(std::min(*s, double(max_wait_.count())) * 1000));
          return json_reply(200, outcome_json(c.wait(id, ms)));
        }
        return json_reply(200, outcome_json(c.fetch(id)));
      }
    }
    return problem(404, "not found", r.method + " " + path + " is not part of the API");
  } catch (const client::server_error& e) {
    return from_node(e);
  } catch (const client::unreachable& e) {
    return problem(503, "node unavailable", e.what());
  } catch (const std::exception& e) {
    return problem(502, "bad gateway", e.what());
  }
}

}  // namespace cuzk::gateway
