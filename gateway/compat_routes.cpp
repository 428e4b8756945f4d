#include "gateway/compat_routes.hpp"

#include <map>
#include <mutex>
#include <nlohmann/json.hpp>

#include "client/lib/errors.hpp"
#include "gateway/proof_json.hpp"

namespace cuzk::gateway {

namespace {

using json = nlohmann::json;

/* snarkjs's proof without "curve", as both servers write it (keys in order: pi_a, pi_b, pi_c, protocol). */
json bare_proof(const json& proof) {
  json p = proof;
  p.erase("curve");
  return p;
}

// ---- iden3 prover-server ----

http_reply iden3_error(unsigned status, const std::string& details, const std::string& error) {
  json j = {{"code", 0}, {"details", details}, {"error", error}};
  return {status, "application/json; charset=utf-8", j.dump() + "\n", {}};
}

/* path.Clean(p) == p, as it checks a circuit path: no empty name, no "." or ".." part, no doubled or trailing "/". */
bool clean_path(std::string_view p) {
  if (p.empty() || p.front() == '/' || p.back() == '/') return false;
  for (std::size_t at = 0; at <= p.size();) {
    const auto end = std::min(p.find('/', at), p.size());
    const auto part = p.substr(at, end - at);
    if (part.empty() || part == "." || part == "..") return false;
    at = end + 1;
  }
  return true;
}

http_reply iden3_generate(const api_context& ctx, client::connection& c, const http_request& r) {
  json body;
  try {
    body = parse_bounded(r.body, ctx.bounds.json_depth);
  } catch (const std::exception& e) {
    return iden3_error(400, "can't bind request", r.body.empty() ? "EOF" : e.what());
  }
  if (!body.is_object() || !body.contains("circuit_name") || !body["circuit_name"].is_string())
    return iden3_error(400, "illegal circuitPath", "illegal circuitPath");
  const auto name = body["circuit_name"].get<std::string>();
  if (!clean_path(name)) return iden3_error(400, "illegal circuitPath", "illegal circuitPath");
  proto::submit s;
  s.job_id = r.fresh_id;
  s.client = "http:" + r.key;
  s.work = proto::installed_work{name, body.contains("inputs") ? body["inputs"].dump() : "{}"};
  try {
    c.submit(s);
  } catch (const client::server_error& e) {
    if (e.code() == proto::error_code::unknown_circuit)
      return iden3_error(400, "illegal circuitPath", "circuitPath doesn't exist");
    return iden3_error(500, "can't generate identifier", e.message());
  }
  const auto poll = ctx.limits.take(key_limits::kind::long_poll, r.key, ctx.bounds.long_polls_per_key);
  if (!poll) return iden3_error(500, "can't generate identifier", "too many proofs waited for at once by this key");
  for (;;) {  // it answers with the proof: wait for it
    const auto o = c.wait(s.job_id, std::chrono::milliseconds(ctx.bounds.max_wait));
    if (!finished(o)) continue;
    if (const auto* st = std::get_if<proto::job_status>(&o))
      return iden3_error(500, "can't generate identifier", "failed to generate proof: " + st->error);
    const auto& part = std::get<proto::proof_reply>(o).partitions.at(0);
    json j = {{"proof", bare_proof(json::parse(part.proof_json))}, {"pub_signals", json::parse(part.public_json)}};
    return {200, "application/json; charset=utf-8", j.dump() + "\n", {}};
  }
}

// ---- rapidsnark proverServer ----

std::mutex rapidsnark_mu;
std::map<std::string, std::string> rapidsnark_jobs;  // key → its one job (the last /input)

http_reply empty_ok() { return {200, "", "", {}}; }

http_reply rapidsnark_status(const json& j) { return {200, "application/json", j.dump(), {}}; }

std::optional<std::string> current_job(const std::string& key) {
  std::lock_guard l(rapidsnark_mu);
  const auto it = rapidsnark_jobs.find(key);
  if (it == rapidsnark_jobs.end()) return std::nullopt;
  return it->second;
}

http_reply rapidsnark_input(client::connection& c, const http_request& r, const std::string& circuit) {
  if (r.body.empty()) return empty_ok();  // as its server: nothing starts
  if (const auto before = current_job(r.key)) {
    try {
      c.cancel(*before);
    } catch (const client::server_error&) {
    }
  }
  proto::submit s;
  s.job_id = r.fresh_id;
  s.client = "http:" + r.key;
  s.work = proto::installed_work{circuit, r.body};
  {
    std::lock_guard l(rapidsnark_mu);
    rapidsnark_jobs[r.key] = s.job_id;
  }
  try {
    c.submit(s);
  } catch (const client::server_error& e) {  // its /status says so, as a failed proof's would
    std::lock_guard l(rapidsnark_mu);
    rapidsnark_jobs[r.key] = "refused:" + e.message();
  }
  return empty_ok();
}

http_reply rapidsnark_status(client::connection& c, const http_request& r) {
  const auto job = current_job(r.key);
  if (!job) return rapidsnark_status({{"status", "ready"}});
  if (job->starts_with("refused:")) return rapidsnark_status({{"status", "failed"}, {"error", job->substr(8)}});
  const auto o = c.fetch(*job);
  if (const auto* st = std::get_if<proto::job_status>(&o)) {
    if (st->state != proto::job_state::failed) return rapidsnark_status({{"status", "busy"}});
    if (st->error.find("cancelled by its client") != std::string::npos)
      return rapidsnark_status({{"status", "aborted"}});
    return rapidsnark_status({{"status", "failed"}, {"error", st->error}});
  }
  const auto& part = std::get<proto::proof_reply>(o).partitions.at(0);
  return rapidsnark_status({{"status", "success"},
                            {"proof", bare_proof(json::parse(part.proof_json)).dump()},
                            {"pubData", json::parse(part.public_json).dump()}});
}

}  // namespace

std::optional<http_reply> handle_compat(const api_context& ctx, client::connection& c, const http_request& r,
                                        const std::string& path) {
  if (path == "/api/v1/proof/generate" && r.method == "POST") return iden3_generate(ctx, c, r);
  if (path == "/api/v1/status" && r.method == "GET")
    return http_reply{200, "application/json; charset=utf-8", "{\"status\":\"up and running\"}\n", {}};
  if (path.starts_with("/input/") && r.method == "POST") return rapidsnark_input(c, r, path.substr(7));
  if (path == "/status" && r.method == "GET") return rapidsnark_status(c, r);
  if (path == "/cancel" && r.method == "POST") {
    if (const auto job = current_job(r.key); job && !job->starts_with("refused:")) {
      try {
        c.cancel(*job);
      } catch (const client::server_error&) {
      }
    }
    return empty_ok();
  }
  return std::nullopt;
}

}  // namespace cuzk::gateway
