#include "requests/client_requests.hpp"
#include "requests/critical_refusals.hpp"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <memory>
#include <string_view>

#include "requests/job_lookup.hpp"
#include "shm/srs_region.hpp"
#include "proto/names.hpp"
#include "util/utf8.hpp"

namespace cuzk::server {

namespace {

void field(std::string& out, std::string_view v) {
  out += std::to_string(v.size());
  out += ':';
  out += v;
}

/* What makes two Submits the same request: a resubmitted job id must carry the same key, work, partitions and
   blinding (the priority and a circom job's .r1cs, which only names a failing constraint, may change), else it
   is a conflict rather than someone else's proof. XXH3-128 (shm::content_hash) over the fields, each
   length-prefixed. */
std::array<std::uint8_t, 16> request_digest(const proto::submit& s) {
  std::string buf;
  field(buf, s.zkey);
  if (const auto* n = std::get_if<proto::native_work>(&s.work)) {
    field(buf, "native");
    field(buf, n->circuit);
    field(buf, n->inputs_json);
  } else if (const auto* c = std::get_if<proto::circom_work>(&s.work)) {
    field(buf, "circom");
    field(buf, c->wtns);  // not the .r1cs: it only names a failing constraint, the proof is the same
  } else {
    const auto& i = std::get<proto::installed_work>(s.work);
    field(buf, "installed");
    field(buf, i.circuit);
    field(buf, i.inputs_json);
  }
  field(buf, std::to_string(s.partitions));
  field(buf, s.blinding ? s.blinding->r + "," + s.blinding->s : "");
  const std::string hex = shm::content_hash({reinterpret_cast<const std::uint8_t*>(buf.data()), buf.size()});
  std::array<std::uint8_t, 16> out{};
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = static_cast<std::uint8_t>(std::stoul(hex.substr(2 * i, 2), nullptr, 16));
  return out;
}

}  // namespace

client_requests::client_requests(context c, std::function<void()> dispatch)
    : c_(c), dispatch_(std::move(dispatch)), witness_files_(c.opt.witness_dirs, "witness") {}

std::optional<std::string> client_requests::precheck(const peer& p, const proto::submit& s) const {
  if (auto why = reserved_job_id(s.job_id)) return why;
  if (std::holds_alternative<proto::installed_work>(s.work)) return std::nullopt;  // a name and inputs, no path
  if (p.network()) {  // no path on this host is a network client's (or an API key's) to name
    if (!shm::is_key_id(s.zkey))
      return "a network client or API key names a key by its id (an operator installs keys with cuzk-shm "
             "load-srs), not by a path on the server's host";
  }
  if (auto why = c_.keys.refusal(s.zkey)) return why;
  if (const auto* c = std::get_if<proto::circom_work>(&s.work)) {
    for (const auto* f : {&c->wtns, c->r1cs ? &*c->r1cs : nullptr}) {
      if (!f || f->starts_with(proto::upload_prefix)) continue;
      if (p.network())
        return "a network client or API key streams its files (cuzk submit --upload); it names no file on the "
               "server's host";
      if (auto why = witness_files_.lexical_refusal(*f)) return why;
    }
  }
  return std::nullopt;
}

std::uint32_t client_requests::entries_of(uid_t uid) const {
  const auto retention_ns = c_.opt.retention_ns();
  std::uint32_t n = 0;
  c_.jobs.for_each([&](shm::job_ref, const shm::job_record& rec) {
    if (rec.owner_uid != uid) return;
    const auto st = shm::job_word_state(rec);
    n += st == shm::job_state::active ||
         ((st == shm::job_state::done || st == shm::job_state::failed) && !shm::evictable(rec, retention_ns));
  });
  return n;
}

double& client_requests::critical_budget(uid_t uid) {
  const auto rate = c_.opt.critical.partitions_per_minute;
  const auto now = std::chrono::steady_clock::now();
  const auto refilled = [&](const bucket& b) {
    return std::min(rate, b.partitions + std::chrono::duration<double>(now - b.at).count() * rate / 60);
  };
  std::erase_if(critical_budget_,
                [&](const auto& kv) { return kv.first != uid && refilled(kv.second) >= rate; });  // full
  auto& b = critical_budget_.try_emplace(uid, bucket{rate, now}).first->second;
  b.partitions = refilled(b);
  b.at = now;
  return b.partitions;
}

std::optional<std::string> client_requests::critical_refusal(const peer& p, std::uint32_t partitions) {
  const auto& o = c_.opt.critical;
  const auto refused = [&](std::string why) -> std::optional<std::string> {
    ++c_.counters.critical_refused;
    return critical_refusal_text(why);
  };
  if (!o.max_per_client) return "this server takes no critical jobs (critical max_per_client = 0)";
  const auto [jobs, parts] = c_.directory.critical_of(p);
  if (jobs >= o.max_per_client) return refused(too_many_critical_jobs(jobs, o.max_per_client));
  if (std::uint64_t(parts) + partitions > o.max_partitions_per_client)
    return refused(too_many_critical_partitions(partitions, parts, o.max_partitions_per_client));
  if (o.partitions_per_minute > 0) {
    if (partitions > o.partitions_per_minute)
      return refused("this job has " + std::to_string(partitions) + " partitions, more than the " +
                     fmt::format("{:g}", o.partitions_per_minute) +
                     " critical partitions a client may submit per minute");
    if (const auto left = critical_budget(p.cred.uid); left < partitions)
      return refused("you submitted critical work at the limit of " + fmt::format("{:g}", o.partitions_per_minute) +
                     " partitions per minute; this job's " + std::to_string(partitions) + " partition(s) fit in " +
                     std::to_string(int(std::ceil((partitions - left) * 60 / o.partitions_per_minute))) + " s");
  }
  return std::nullopt;
}

std::uint32_t client_requests::preparing_of(uid_t uid) const {
  const auto it = preparing_by_uid_.find(uid);
  return it == preparing_by_uid_.end() ? 0u : it->second;
}

std::optional<std::string> client_requests::refusal_for(std::uint32_t held, std::uint32_t preparing) const {
  const std::uint32_t limit = entry_limit();
  if (held >= limit)
    return "you hold " + std::to_string(held) + " jobs (unfinished, or finished and not fetched), the limit per " +
           "client is " + std::to_string(limit) + "; fetch or wait for some";
  if (preparing >= c_.opt.max_preparing_per_client)
    return "you have " + std::to_string(preparing) + " submissions being prepared, the limit per client is " +
           std::to_string(c_.opt.max_preparing_per_client) + "; retry when they are answered";
  if (to_prepare_.size() + prep_running_ >= c_.opt.max_preparing)
    return "the server is preparing " + std::to_string(to_prepare_.size() + prep_running_) +
           " submissions; retry shortly";
  return std::nullopt;
}

proto::capacity client_requests::capacity_for(const peer& p) const {
  proto::capacity cap;
  const bool all = c_.opt.is_operator(p.cred.uid) && !p.network();
  // (key id, priority) → queued, running; other clients' keys are one entry without an id
  std::map<std::pair<std::string, int>, std::pair<std::uint32_t, std::uint32_t>> load;
  std::uint64_t live = 0, evictable = 0, waiting = 0;  // waiting: every queued partition, listed or not
  const auto retention_ns = c_.opt.retention_ns();
  c_.jobs.for_each([&](shm::job_ref, const shm::job_record& rec) {
    ++live;
    const auto st = shm::job_word_state(rec);
    if ((st == shm::job_state::done || st == shm::job_state::failed) && shm::evictable(rec, retention_ns)) ++evictable;
    if (st != shm::job_state::active) return;
    const std::string key =
        all || rec.owner_uid == p.cred.uid ? std::string(shm::field_text(rec.key_id)) : std::string();
    auto& [queued, running] = load[{key, int(rec.priority)}];
    for (std::uint32_t i = 0; i < rec.n_partitions; ++i) {
      const auto s = shm::part_word::unpack(rec.parts[i].word.load(std::memory_order_acquire)).state;
      queued += s == shm::part_state::queued;
      running += s == shm::part_state::slotted;
      waiting += s == shm::part_state::queued;
    }
  });
  for (const auto& [k, v] : load) {
    if (cap.keys.size() == proto::max_capacity_keys) break;
    cap.keys.push_back({k.first, static_cast<proto::priority>(k.second), v.first, v.second});
  }
  c_.node.capacity(cap);  // slot classes, throughput
  cap.estimated_wait_s =
      waiting && cap.partitions_per_minute > 0 ? 60.0 * double(waiting) / cap.partitions_per_minute : 0;
  const auto preparing = preparing_of(p.cred.uid);
  cap.jobs_held = entries_of(p.cred.uid) + preparing;
  cap.jobs_limit = entry_limit();
  std::optional<std::string> why;
  if (!c_.loop.accepting)
    why = "the server is shutting down";
  else if (live - evictable >= c_.jobs.capacity())
    why = "the job table is full of unfinished or unfetched jobs";
  else
    why = refusal_for(cap.jobs_held, preparing);
  cap.accepting = !why;
  if (why) cap.refusal = util::printable(*why, proto::max_error_bytes, true);
  return cap;
}

std::uint32_t client_requests::entry_limit() const {
  const auto half = static_cast<std::uint32_t>(std::max<std::uint64_t>(1, c_.jobs.capacity() / 2));
  return std::min(c_.opt.max_jobs_per_client, half);
}

// The loop does only what is cheap: the idempotency and conflict check
// against the job table, the per-client and global limits, and the checks
// that need no file; everything that reads a file or counts a circuit runs on
// the preparation pool, which serves the clients' queues in turn.
void client_requests::submit(const peer& p, std::uint64_t rq, const proto::submit& s) {
  ++c_.counters.submits;
  if (!c_.loop.accepting)
    return c_.out.reply_error(p.to(), rq, proto::error_code::unavailable, "the server is shutting down");
  submission sub{p, rq, s, request_digest(s), {}};
  if (c_.directory.answer_known(sub)) return;  // idempotent: the same job, never proven twice
  if (auto why = precheck(p, s)) return c_.out.reply_error(p.to(), rq, proto::error_code::bad_request, *why);
  const auto preparing = preparing_of(p.cred.uid);
  if (auto why = refusal_for(entries_of(p.cred.uid) + preparing, preparing))
    return c_.out.reply_error(p.to(), rq, proto::error_code::busy, *why);
  if (s.priority == proto::priority::critical)
    if (auto why = critical_refusal(p, s.partitions)) return c_.directory.refuse(sub, *why, proto::error_code::busy);
  if (auto why = claim_uploads(p, s, sub.uploaded))
    return c_.directory.refuse(sub, *why, proto::error_code::bad_request);
  ++preparing_by_uid_[p.cred.uid];
  to_prepare_.push(p.cred.uid, std::move(sub));
  start_preparing();
}

std::optional<std::string> client_requests::claim_uploads(const peer& p, const proto::submit& s, spooled& out) {
  std::vector<std::string> claimed;
  for (const auto& [id, kind] : named_uploads(s)) {
    auto f = c_.uploaded.claim(p.cred.uid, id, kind);
    if (!f) {
      for (const auto& done : claimed) c_.uploaded.release(p.cred.uid, done);  // only what this Submit claimed
      return f.error();
    }
    (kind == proto::upload_kind::wtns ? out.wtns : out.r1cs) = *f;
    claimed.push_back(id);
  }
  return std::nullopt;
}

void client_requests::release_uploads(const peer& p, const proto::submit& s) {
  for (const auto& [id, kind] : named_uploads(s)) c_.uploaded.release(p.cred.uid, id);
}

void client_requests::start_preparing() {
  while (prep_running_ < std::max(1u, c_.opt.prepare_threads)) {
    auto next = to_prepare_.pop();
    if (!next) return;
    ++prep_running_;
    boost::asio::post(c_.prep, [this, sub = std::move(*next)]() mutable {
      prepared r = prepare(sub.s, sub.p.cred, c_.keys, c_.slots, witness_files_, c_.opt.pool, sub.uploaded,
                           c_.directory.stores_files());
      boost::asio::post(c_.io, [this, sub = std::move(sub), r = std::move(r)]() mutable {
        --prep_running_;
        if (--preparing_by_uid_[sub.p.cred.uid] == 0) preparing_by_uid_.erase(sub.p.cred.uid);
        on_prepared(sub, std::move(r));
        start_preparing();
      });
    });
  }
}

void client_requests::on_prepared(const submission& sub, prepared r) {
  const auto& [p, rq, s, digest, uploaded] = sub;
  if (r.code) {
    c_.out.reply_error(p.to(), rq, *r.code, r.error);
    release_uploads(p, s);
    return dispatch_();
  }
  // The bucket's partitions are taken now (others prepared meanwhile) and given back if no job is created.
  const bool critical = s.priority == proto::priority::critical;
  if (critical && !c_.directory.holds(p, s.job_id))
    if (auto why = critical_refusal(p, s.partitions)) {
      c_.out.reply_error(p.to(), rq, proto::error_code::busy, *why);
      release_uploads(p, s);
      return dispatch_();
    }
  const bool charged = critical && c_.opt.critical.partitions_per_minute > 0;
  if (charged) critical_budget(p.cred.uid) -= s.partitions;
  const std::string inputs = r.inputs_file;
  c_.directory.record(sub, std::move(r), [this, charged, p = sub.p, s = sub.s, inputs](recorded out) {
    if (charged && !out.created) critical_budget(p.cred.uid) += s.partitions;
    // An installed circuit's inputs are the new job's file (removed when it ends), else they go.
    if (!inputs.empty() && out.job && out.created)
      c_.uploaded.adopt(p.cred.uid, inputs, proto::upload_kind::wtns, *out.job);
    else if (!inputs.empty())
      (void)::unlink(inputs.c_str());
    // The uploads it names are the new job's now, the directory's (the spool's copies go), or the client's again.
    for (const auto& [id, kind] : named_uploads(s))
      if (out.job)
        c_.uploaded.consumed(p.cred.uid, id, *out.job);
      else if (out.stored)
        c_.uploaded.discard(p.cred.uid, id);
      else
        c_.uploaded.release(p.cred.uid, id);
    dispatch_();
  });
}

void client_requests::status(const peer& p, std::uint64_t rq, const proto::status_request& s) {
  if (!s.capacity_only) return c_.directory.status(p, rq, s);
  proto::status_reply st;  // the node's own view, also on a cluster node
  st.capacity = capacity_for(p);
  c_.out.send(p.to(), proto::message{rq, std::move(st)});
}

}  // namespace cuzk::server
