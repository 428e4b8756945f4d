#include "gateway/http_api.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>

#include "client/lib/connection.hpp"
#include "client/lib/errors.hpp"
#include "gateway/compat_routes.hpp"
#include "gateway/gateway_metrics.hpp"
#include "gateway/openapi_document.hpp"
#include "gateway/proof_json.hpp"
#include "gateway/webhooks.hpp"
#include "gateway/witness_upload.hpp"
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

/* Job ids and Idempotency-Keys: 1–128 of A-Za-z0-9._:- (never a path, never a header's end). */
bool valid_id(std::string_view id) {
  return !id.empty() && id.size() <= 128 && std::ranges::all_of(id, [](char ch) {
    return std::isalnum(static_cast<unsigned char>(ch)) || ch == '.' || ch == '_' || ch == ':' || ch == '-';
  });
}

std::optional<proto::priority> priority_of(std::string_view p) {
  if (p == "high") return proto::priority::high;
  if (p == "normal") return proto::priority::normal;
  if (p == "low") return proto::priority::low;
  return std::nullopt;
}

http_reply accepted_reply(const proto::submit& s, const proto::accepted& a) {
  json j = {{"id", s.job_id}, {"state", std::string(proto::name(a.state))}, {"created", a.created}};
  return {202, "application/json", j.dump(), {{"Location", "/v1/proofs/" + s.job_id}}};
}

/* POST /v1/proofs: {circuit, inputs, priority?, callback_url?} for an installed circuit, or (streams_body) a
   .wtns as the body with ?key=ID[&priority=][&callback_url=]. */
http_reply submit_proof(const api_context& ctx, client::connection& c, const http_request& r,
                        const std::string& query) {
  proto::submit s;
  if (!r.idempotency_key.empty() && !valid_id(r.idempotency_key))
    return problem(400, "bad request", "an Idempotency-Key is 1 to 128 of A-Z a-z 0-9 . _ : -");
  s.job_id = r.idempotency_key.empty() ? r.fresh_id : r.idempotency_key;
  s.client = "http:" + r.key;
  std::string callback;
  if (r.read_body) {
    const auto key = util::query_value(query, "key");
    if (!key || key->empty())
      return problem(400, "bad request", "a witness upload names the key it is for: POST /v1/proofs?key=KEY_ID");
    const auto prio = priority_of(util::query_value(query, "priority").value_or("normal"));
    if (!prio) return problem(400, "bad request", "priority is low, normal or high");
    s.priority = *prio;
    callback = util::url_decode(util::query_value(query, "callback_url").value_or(""));
    if (!callback.empty() && !ctx.hooks) return problem(400, "bad request", "this gateway delivers no webhooks");
    if (!callback.empty())
      if (auto why = ctx.hooks->check_url(callback)) return problem(400, "bad request", *why);
    s.zkey = util::url_decode(*key);
    s.work = proto::circom_work{std::string(proto::upload_prefix) + "w:" + s.job_id.substr(0, 61), std::nullopt};
    stream_witness(c, "w:" + s.job_id.substr(0, 61), s.zkey, r, ctx.bounds.witness_bytes);
  } else {
    json body;
    try {
      body = parse_bounded(r.body, ctx.bounds.json_depth);
    } catch (const std::exception& e) {
      metrics().refused(std::string_view(e.what()).find("nested deeper") != std::string_view::npos ? "json_depth"
                                                                                                   : "malformed");
      return problem(400, "bad request", std::string("the body is not JSON: ") + e.what());
    }
    if (!body.is_object() || !body.contains("circuit") || !body["circuit"].is_string() || !body.contains("inputs") ||
        !body["inputs"].is_object())
      return problem(400, "bad request", "expected {\"circuit\": NAME, \"inputs\": {...}}");
    const auto prio = priority_of(body.value("priority", std::string("normal")));
    if (!prio) return problem(400, "bad request", "priority is low, normal or high");
    s.priority = *prio;
    if (body.contains("callback_url")) {
      if (!body["callback_url"].is_string()) return problem(400, "bad request", "callback_url is a URL");
      callback = body["callback_url"].get<std::string>();
      if (!ctx.hooks) return problem(400, "bad request", "this gateway delivers no webhooks");
      if (auto why = ctx.hooks->check_url(callback)) return problem(400, "bad request", *why);
    }
    s.work = proto::installed_work{body["circuit"].get<std::string>(), body["inputs"].dump()};
  }
  std::optional<webhooks::reservation> hook;
  if (!callback.empty()) {
    hook = ctx.hooks->reserve(r.key);
    if (!*hook) {
      metrics().refused("webhooks_per_key");
      return problem(429, "too many requests",
                     "key " + r.key + " has " + std::to_string(ctx.bounds.webhooks_per_key) + " webhooks pending");
    }
  }
  const auto a = c.submit(s);
  if (hook) ctx.hooks->watch(std::move(*hook), r.key, r.token, s.job_id, callback);
  return accepted_reply(s, a);
}

http_reply get_proof(const api_context& ctx, client::connection& c, const http_request& r, const std::string& id,
                     const std::string& query) {
  const auto w = util::query_value(query, "wait");
  if (!w) return json_reply(200, outcome_json(c.fetch(id)));
  const auto secs = util::seconds_of(*w);
  if (!secs) return problem(400, "bad request", "wait is seconds: 30, 30s or 1m");
  const auto poll = ctx.limits.take(key_limits::kind::long_poll, r.key, ctx.bounds.long_polls_per_key);
  if (!poll) {
    metrics().refused("long_polls_per_key");
    return problem(429, "too many requests",
                   "key " + r.key + " has " + std::to_string(ctx.bounds.long_polls_per_key) + " long-polls open");
  }
  const auto ms =
      std::chrono::milliseconds(static_cast<long long>(std::min(*secs, double(ctx.bounds.max_wait.count())) * 1000));
  return json_reply(200, outcome_json(c.wait(id, ms)));
}

http_reply v1(const api_context& ctx, client::connection& c, const http_request& r, const std::string& path,
              const std::string& query) {
  if (path == "/v1/circuits" && r.method == "GET") return json_reply(200, {{"circuits", circuits_json(c.capacity())}});
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
  if (path == "/v1/proofs" && r.method == "POST") return submit_proof(ctx, c, r, query);
  if (path.starts_with("/v1/proofs/")) {
    const std::string id = util::url_decode(path.substr(11));
    if (!valid_id(id)) return problem(404, "not found", "a job id is 1 to 128 of A-Z a-z 0-9 . _ : -");
    if (r.method == "DELETE") return json_reply(200, status_json(c.cancel(id)));
    if (r.method == "GET") return get_proof(ctx, c, r, id, query);
  }
  return problem(404, "not found", r.method + " " + path + " is not part of the API");
}

}  // namespace

http_reply problem(unsigned status, const std::string& title, const std::string& detail) {
  json j = {{"type", "about:blank"}, {"title", title}, {"status", status}, {"detail", util::printable(detail, 2048)}};
  return {status, "application/problem+json", j.dump(), {}};
}

bool streams_body(std::string_view method, std::string_view target, std::string_view content_type) {
  return method == "POST" && target.substr(0, target.find('?')) == "/v1/proofs" &&
         (content_type.starts_with("application/octet-stream") ||
          content_type.starts_with("application/vnd.cuzk.wtns"));
}

std::optional<http_reply> handle_open(const http_request& r) {
  const std::string path = r.target.substr(0, r.target.find('?'));
  if (path == "/v1/openapi.json" && r.method == "GET")
    return http_reply{200, "application/json", openapi_document(), {}};
  if (path == "/metrics" && r.method == "GET") {
    if (!r.loopback_peer) return problem(403, "forbidden", "the gateway's metrics are served to loopback peers only");
    return http_reply{200, "text/plain; version=0.0.4", metrics().prometheus(), {}};
  }
  return std::nullopt;
}

http_reply handle(const api_context& ctx, http_request r) {
  r.fresh_id = client::random_job_id();
  const auto q = r.target.find('?');
  const std::string path = r.target.substr(0, q);
  const std::string query = q == std::string::npos ? "" : r.target.substr(q + 1);
  client::options o;
  o.on_behalf_of = r.key;
  o.attempts = 1;
  try {
    return ctx.nodes->call(
        o,
        [&](client::connection& c) -> http_reply {
          if (path.starts_with("/v1/")) return v1(ctx, c, r, path, query);
          if (auto compat = handle_compat(ctx, c, r, path)) return std::move(*compat);
          return problem(404, "not found", r.method + " " + path + " is not part of the API (see /v1/openapi.json)");
        },
        static_cast<bool>(r.read_body));
  } catch (const client::server_error& e) {
    return from_node(e);
  } catch (const client::unreachable& e) {
    return problem(503, "node unavailable", e.what());
  } catch (const std::length_error& e) {
    metrics().refused("witness_bytes");
    return problem(413, "too large", e.what());
  } catch (const std::invalid_argument& e) {
    return problem(400, "bad request", e.what());
  } catch (const std::exception& e) {
    return problem(502, "bad gateway", e.what());
  }
}

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

}  // namespace cuzk::gateway
