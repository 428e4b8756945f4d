#include "requests/client_requests.hpp"
#include "requests/critical_refusals.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>

#include "cluster/cluster_names.hpp"
#include "job/result.hpp"
#include "requests/job_lookup.hpp"
#include "provers/proof_timings.hpp"
#include "requests/request_digest.hpp"
#include "shm/failpoint.hpp"
#include "shm/srs_region.hpp"
#include "requests/status_jobs.hpp"
#include "requests/take_if.hpp"
#include "proto/names.hpp"
#include "util/utf8.hpp"

namespace cuzk::server {

namespace {

proto::job_state job_state_of(const shm::job_record& rec, shm::job_state s) {
  switch (s) {
    case shm::job_state::done: return proto::job_state::done;
    case shm::job_state::failed: return proto::job_state::failed;
    default: break;
  }
  for (std::uint32_t p = 0; p < rec.n_partitions; ++p)
    if (shm::part_word::unpack(rec.parts[p].word.load(std::memory_order_acquire)).state != shm::part_state::queued)
      return proto::job_state::running;
  return proto::job_state::queued;
}



}  // namespace

client_requests::client_requests(context c, std::function<void()> dispatch,
                                 std::function<void(proto::status_reply&, bool)> describe,
                                 std::function<void(proto::capacity&)> node_capacity)
    : c_(c),
      dispatch_(std::move(dispatch)),
      describe_(std::move(describe)),
      node_capacity_(std::move(node_capacity)),
      witness_files_(c.opt.witness_dirs, "witness") {}

proto::job_status client_requests::status_of(const shm::job_record& rec) const {
  proto::job_status st;
  st.job_id = std::string(shm::field_text(rec.job_id));
  st.state = job_state_of(rec, shm::job_word_state(rec));
  // Made valid and bounded on the way out too (a record of an older server may hold a cut character):
  // one bad string would make the whole reply undecodable for the operator.
  st.error = util::printable({rec.error, std::min<std::size_t>(rec.error_len, sizeof rec.error)}, proto::max_error_bytes, true);
  st.submitted_ns = rec.submitted_ns;
  st.finished_ns = rec.finished_ns;
  st.priority = rec.priority;
  st.client = util::printable(shm::field_text(rec.client), proto::max_client_bytes);
  st.curve = curves::valid_curve_id(rec.curve) ? curves::curve_id(rec.curve) : curves::curve_id::bls12_381;
  for (std::uint32_t p = 0; p < rec.n_partitions; ++p) {
    const auto& part = rec.parts[p];
    const auto pw = shm::part_word::unpack(part.word.load(std::memory_order_acquire));
    proto::partition_status ps;
    switch (pw.state) {
      case shm::part_state::queued: ps.state = proto::partition_state::queued; break;
      case shm::part_state::done: ps.state = proto::partition_state::done; break;
      case shm::part_state::failed: ps.state = proto::partition_state::failed; break;
      case shm::part_state::slotted: {
        auto sw = c_.slots.word(pw.slot);
        ps.state = !sw                                         ? proto::partition_state::queued
                   : sw->state == shm::slot_state::assigned ? proto::partition_state::synthesizing
                   : sw->state == shm::slot_state::filled   ? proto::partition_state::synthesized
                   : sw->state == shm::slot_state::proving  ? proto::partition_state::proving
                                                            : proto::partition_state::queued;
        break;
      }
    }
    ps.synth_start_ns = part.synth_start_ns;
    ps.synth_end_ns = part.synth_end_ns;
    ps.prove_start_ns = part.prove_start_ns;
    ps.prove_end_ns = part.prove_end_ns;
    ps.syntheses = part.syntheses.load(std::memory_order_relaxed);
    ps.attempts = pw.attempts;
    if (pw.state == shm::part_state::done) {
      ps.timings = part.timings.phases;
      ps.gpu = part.timings.gpu;
    }
    st.partitions.push_back(ps);
  }
  return st;
}

std::optional<std::string> client_requests::precheck(const peer& p, const proto::submit& s) const {
  if (p.network()) {  // no path on this host is a network client's to name
    if (!shm::is_key_id(s.zkey))
      return "a network client names a key by its id (an operator installs keys with cuzk-shm load-srs), not by a "
             "path on the server's host";
  }
  if (auto why = reserved_job_id(s.job_id)) return why;
  if (auto why = c_.keys.refusal(s.zkey)) return why;
  if (const auto* c = std::get_if<proto::circom_work>(&s.work)) {
    for (const auto* f : {&c->wtns, c->r1cs ? &*c->r1cs : nullptr}) {
      if (!f || f->starts_with(proto::upload_prefix)) continue;
      if (p.network()) return "a network client streams its files (cuzk submit --upload); it names no file on the server's host";
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

std::pair<std::uint32_t, std::uint32_t> client_requests::critical_of(uid_t uid) const {
  std::pair<std::uint32_t, std::uint32_t> n{0, 0};
  c_.jobs.for_each([&](shm::job_ref, const shm::job_record& rec) {
    if (rec.owner_uid == uid && shm::job_word_state(rec) == shm::job_state::active &&
        rec.priority == priority::critical)
      ++n.first, n.second += rec.n_partitions;
  });
  return n;
}

double& client_requests::critical_budget(uid_t uid) {
  const auto rate = c_.opt.critical.partitions_per_minute;
  const auto now = std::chrono::steady_clock::now();
  const auto refilled = [&](const bucket& b) {
    return std::min(rate, b.partitions + std::chrono::duration<double>(now - b.at).count() * rate / 60);
  };
  std::erase_if(critical_budget_, [&](const auto& kv) { return kv.first != uid && refilled(kv.second) >= rate; });  // full
  auto& b = critical_budget_.try_emplace(uid, bucket{rate, now}).first->second;
  b.partitions = refilled(b);
  b.at = now;
  return b.partitions;
}

std::optional<std::string> client_requests::critical_refusal(uid_t uid, std::uint32_t partitions) {
  const auto& o = c_.opt.critical;
  const auto refused = [&](std::string why) -> std::optional<std::string> {
    ++c_.counters.critical_refused;
    return critical_refusal_text(why);
  };
  if (!o.max_per_client) return "this server takes no critical jobs (critical max_per_client = 0)";
  const auto [jobs, parts] = c_.cluster ? std::pair<std::uint32_t, std::uint32_t>{} : critical_of(uid);  // cluster: its store
  if (jobs >= o.max_per_client) return refused(too_many_critical_jobs(jobs, o.max_per_client));
  if (std::uint64_t(parts) + partitions > o.max_partitions_per_client)
    return refused(too_many_critical_partitions(partitions, parts, o.max_partitions_per_client));
  if (o.partitions_per_minute > 0) {
    if (partitions > o.partitions_per_minute)
      return refused("this job has " + std::to_string(partitions) + " partitions, more than the " +
                     fmt::format("{:g}", o.partitions_per_minute) + " critical partitions a client may submit per minute");
    if (const auto left = critical_budget(uid); left < partitions)
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
    return "the server is preparing " + std::to_string(to_prepare_.size() + prep_running_) + " submissions; retry shortly";
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
    const std::string key = all || rec.owner_uid == p.cred.uid ? std::string(shm::field_text(rec.key_id)) : std::string();
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
  node_capacity_(cap);  // slot classes, throughput
  cap.estimated_wait_s = waiting && cap.partitions_per_minute > 0 ? 60.0 * double(waiting) / cap.partitions_per_minute : 0;
  const auto preparing = preparing_of(p.cred.uid);
  cap.jobs_held = entries_of(p.cred.uid) + preparing;
  cap.jobs_limit = entry_limit();
  std::optional<std::string> why;
  if (!c_.loop.accepting) why = "the server is shutting down";
  else if (live - evictable >= c_.jobs.capacity()) why = "the job table is full of unfinished or unfetched jobs";
  else why = refusal_for(cap.jobs_held, preparing);
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
  if (!c_.loop.accepting) return c_.out.reply_error(p.to(), rq, proto::error_code::unavailable, "the server is shutting down");
  const auto digest = request_digest(s);
  if (c_.cluster) {
    // The database answers a known id (on any node): the checks below and the preparation run first.
  } else if (auto known = c_.jobs.find(s.job_id, p.cred.uid)) {  // idempotent: the same job, never proven twice
    auto rec = c_.jobs.get(*known);
    if (rec) {
      if (std::memcmp((*rec)->digest, digest.data(), digest.size()) != 0)
        return c_.out.reply_error(p.to(), rq, proto::error_code::conflict,
                           "job " + s.job_id + " was submitted before with a different request (key, circuit, "
                           "inputs or witness); choose another job id");
      c_.out.send(p.to(), proto::message{rq, proto::accepted{s.job_id, false, status_of(**rec).state}});
      return;
    }
  }
  if (auto why = precheck(p, s)) return c_.out.reply_error(p.to(), rq, proto::error_code::bad_request, *why);
  const auto preparing = preparing_of(p.cred.uid);
  if (auto why = refusal_for(entries_of(p.cred.uid) + preparing, preparing))
    return c_.out.reply_error(p.to(), rq, proto::error_code::busy, *why);
  if (s.priority == proto::priority::critical)
    if (auto why = critical_refusal(p.cred.uid, s.partitions)) {
      if (c_.cluster) return c_.cluster->resubmitted(p, rq, s, digest, *why, proto::error_code::busy);  // a known job
      return c_.out.reply_error(p.to(), rq, proto::error_code::busy, *why);
    }
  spooled uploaded;
  if (auto why = claim_uploads(p, s, uploaded)) {
    if (c_.cluster) return c_.cluster->resubmitted(p, rq, s, digest, *why);
    return c_.out.reply_error(p.to(), rq, proto::error_code::bad_request, *why);
  }
  ++preparing_by_uid_[p.cred.uid];
  to_prepare_.push(p.cred.uid, submission{p, rq, s, digest, std::move(uploaded)});
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
      prepared r =
          prepare(sub.s, sub.p.cred, c_.keys, c_.slots, witness_files_, c_.opt.pool, sub.uploaded, c_.cluster != nullptr);
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
  if (c_.cluster) {
    if (r.code) {
      c_.out.reply_error(sub.p.to(), sub.rq, *r.code, r.error);
      return release_uploads(sub.p, sub.s);
    }
    // The bucket's partitions are taken now (others prepared meanwhile) and given back if the database creates no job.
    const bool critical = sub.s.priority == proto::priority::critical && c_.opt.critical.partitions_per_minute > 0;
    if (critical) {
      if (auto why = critical_refusal(sub.p.cred.uid, sub.s.partitions)) {
        c_.out.reply_error(sub.p.to(), sub.rq, proto::error_code::busy, *why);
        return release_uploads(sub.p, sub.s);
      }
      critical_budget(sub.p.cred.uid) -= sub.s.partitions;
    }
    c_.keys.keep(r.key_id, r.pk);
    // The database holds the job and its streamed files now (or refused them): the spool's copies go (or stay the client's).
    return c_.cluster->record(sub.p, sub.rq, sub.s, sub.digest, r, sub.uploaded,
                              [this, critical, p = sub.p, s = sub.s](bool stored, bool created) {
      if (critical && !created) critical_budget(p.cred.uid) += s.partitions;
      if (!stored) return release_uploads(p, s);
      for (const auto& [id, kind] : named_uploads(s)) c_.uploaded.discard(p.cred.uid, id);
    });
  }
  const auto job = record(sub, std::move(r));
  // The uploads it names are the new job's now, or the client's again.
  if (job)
    for (const auto& [id, kind] : named_uploads(sub.s)) c_.uploaded.consumed(sub.p.cred.uid, id, *job);
  else
    release_uploads(sub.p, sub.s);
  dispatch_();
}

std::optional<shm::job_ref> client_requests::record(const submission& sub, prepared r) {
  const auto& [p, rq, s, digest, uploaded] = sub;
  auto refuse = [&](proto::error_code code, const std::string& why) -> std::optional<shm::job_ref> {
    c_.out.reply_error(p.to(), rq, code, why);
    return std::nullopt;
  };
  if (r.code) return refuse(*r.code, r.error);
  if (!c_.loop.accepting) return refuse(proto::error_code::unavailable, "the server is shutting down");
  if (s.priority == proto::priority::critical && !c_.jobs.find(s.job_id, p.cred.uid))  // others prepared meanwhile
    if (auto why = critical_refusal(p.cred.uid, s.partitions)) return refuse(proto::error_code::busy, *why);
  c_.keys.keep(r.key_id, r.pk);
  shm::job_request req{s.job_id, s.client, r.key_id, r.spec_json, s.priority, s.partitions};
  req.curve = static_cast<std::uint8_t>(r.pk->curve);
  req.owner_uid = p.cred.uid;
  req.digest = digest;
  req.retention_ns = c_.opt.retention_ns();
  auto out = c_.queue.submit(req);  // a new job's partitions wait from now on
  if (!out) {
    if (out.error() == shm::error::job_table_full)
      return refuse(proto::error_code::busy, "the job table is full of unfinished or unfetched jobs; retry later");
    return refuse(proto::error_code::internal, std::string("cannot record the job: ") + std::string(to_string(out.error())));
  }
  if (out->conflict)
    return refuse(proto::error_code::conflict,
                  "job " + s.job_id + " was submitted before with a different request; choose another job id");
  shm::failpoint("server.submit.accepted");
  auto rec = c_.jobs.get(out->job);
  c_.out.send(p.to(), proto::message{rq, proto::accepted{s.job_id, out->created,
                                                     rec ? status_of(**rec).state : proto::job_state::queued}});
  if (!out->created) return std::nullopt;
  if (s.priority == proto::priority::critical && c_.opt.critical.partitions_per_minute > 0)
    critical_budget(p.cred.uid) -= s.partitions;
  spdlog::info("job {} of uid {} accepted ({} partition(s), priority {})", util::printable(s.job_id), p.cred.uid, s.partitions,
               proto::name(s.priority));
  return out->job;
}

std::optional<shm::job_ref> client_requests::find_job(const peer& p, std::uint64_t rq, const std::string& job_id,
                                             std::optional<std::uint32_t> owner) {
  // One scan: every live record with this id, by owner (a record evicted
  // meanwhile fails the generation check of the get() that follows).
  std::vector<uid_t> owners;
  std::vector<shm::job_ref> refs;
  c_.jobs.for_each([&](shm::job_ref j, const shm::job_record& rec) {
    if (shm::job_word_state(rec) != shm::job_state::reserved && shm::field_text(rec.job_id) == job_id) {
      owners.push_back(rec.owner_uid);
      refs.push_back(j);
    }
  });
  const auto o = owner_of_job(p.cred.uid, c_.opt.is_operator(p.cred.uid), owner, owners);
  if (o.uid)
    for (std::size_t i = 0; i < owners.size(); ++i)
      if (owners[i] == *o.uid) return refs[i];
  if (!o.ambiguous.empty())
    c_.out.reply_error(p.to(), rq, proto::error_code::bad_request, ambiguous_job(job_id, o.ambiguous));
  else
    c_.out.reply_error(p.to(), rq, proto::error_code::unknown_job, "no job " + job_id);
  return std::nullopt;
}

void client_requests::status(const peer& p, std::uint64_t rq, const proto::status_request& s) {
  if (s.capacity_only) {  // the node's own view, also on a cluster node
    proto::status_reply st;
    st.capacity = capacity_for(p);
    c_.out.send(p.to(), proto::message{rq, std::move(st)});
    return;
  }
  if (s.cluster) {
    if (!c_.cluster)
      return c_.out.reply_error(p.to(), rq, proto::error_code::bad_request,
                                "this node is not in a cluster (it runs without --cluster-database)");
    return c_.cluster->cluster(p, rq);
  }
  if (c_.cluster) return c_.cluster->status(p, rq, s);
  const address id = p.to();
  if (s.job_id) {
    auto j = find_job(p, rq, *s.job_id, s.owner_uid);
    if (!j) return;
    auto rec = c_.jobs.get(*j);
    if (!rec) return c_.out.reply_error(id, rq, proto::error_code::unknown_job, "no job " + *s.job_id);
    c_.out.send(id, proto::message{rq, status_of(**rec)});
    return;
  }
  // A client sees its own jobs; operators see every job, the slots and the workers.
  const bool all = c_.opt.is_operator(p.cred.uid);
  proto::status_reply st;
  std::vector<std::pair<std::uint64_t, shm::job_ref>> jobs;
  c_.jobs.for_each([&](shm::job_ref j, const shm::job_record& rec) {
    if (shm::job_word_state(rec) != shm::job_state::reserved && (all || rec.owner_uid == p.cred.uid))
      jobs.emplace_back(rec.seq, j);
  });
  std::sort(jobs.begin(), jobs.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
  add_jobs(st, jobs.size(), [&](std::size_t i) -> std::optional<proto::job_status> {
    auto rec = c_.jobs.get(jobs[i].second);
    if (!rec) return std::nullopt;
    return status_of(**rec);
  });
  st.hung_timeout_ms = static_cast<std::uint32_t>(std::min<std::int64_t>(c_.opt.hung_timeout.count(), UINT32_MAX));
  describe_(st, all);
  st.capacity = capacity_for(p);
  c_.out.send(id, proto::message{rq, std::move(st)});
}


// A done job's reply decodes each partition's stored proof and formats it as
// JSON: up to 16 partitions, milliseconds each, so it is built on the replies
// thread, never on the loop, and a client has at most max_fetches_per_client
// of them in flight.
bool client_requests::answer_finished(const address& id, uid_t uid, std::uint64_t rq, shm::job_ref j) {
  auto rec = c_.jobs.get(j);
  if (!rec) return false;
  const auto state = shm::job_word_state(**rec);
  if (state == shm::job_state::failed) {
    if (c_.out.send(id, proto::message{rq, status_of(**rec)})) c_.jobs.mark_fetched(j);
    return true;
  }
  if (state != shm::job_state::done) return false;
  auto& fetching = fetching_by_uid_[uid];
  if (fetching >= c_.opt.max_fetches_per_client) {
    c_.out.reply_error(id, rq, proto::error_code::busy,
                "you have " + std::to_string(fetching) + " proof replies being prepared, the limit per client is " +
                    std::to_string(c_.opt.max_fetches_per_client) + "; retry when they are answered");
    return true;
  }
  ++fetching;
  const shm::job_record* r = *rec;  // a done record does not change until it is fetched and evicted, on this loop
  boost::asio::post(c_.replies, [this, id, uid, rq, j, r] {
    proto::proof_reply pr;
    pr.job_id = std::string(shm::field_text(r->job_id));
    std::optional<std::string> error;
    for (std::uint32_t p = 0; p < r->n_partitions && !error; ++p) {
      const auto& part = r->parts[p];
      try {
        auto res = job::result_to_json({part.result, std::min<std::size_t>(part.result_len, shm::result_bytes)});
        pr.partitions.push_back({std::move(res.proof), std::move(res.public_signals)});
      } catch (const std::exception& e) {
        error = "job " + pr.job_id + ": " + e.what();
      }
    }
    boost::asio::post(c_.io, [this, id, uid, rq, j, pr = std::move(pr), error]() mutable {
      if (--fetching_by_uid_[uid] == 0) fetching_by_uid_.erase(uid);
      // Evicted while its reply was built: what was read may be another job's.
      if (!c_.jobs.get(j)) return c_.out.reply_error(id, rq, proto::error_code::unknown_job, "the job is no longer known");
      if (error) return c_.out.reply_error(id, rq, proto::error_code::internal, *error);
      if (c_.out.send(id, proto::message{rq, std::move(pr)})) c_.jobs.mark_fetched(j);
    });
  });
  return true;
}

void client_requests::fetch(const peer& p, std::uint64_t rq, const proto::fetch& f) {
  if (c_.cluster) return c_.cluster->fetch(p, rq, f);
  auto j = find_job(p, rq, f.job_id, f.owner_uid);
  if (!j) return;
  if (answer_finished(p.to(), p.cred.uid, rq, *j)) return;
  auto rec = c_.jobs.get(*j);
  if (rec) c_.out.send(p.to(), proto::message{rq, status_of(**rec)});
}

void client_requests::wait(const peer& p, std::uint64_t rq, const proto::wait_request& w) {
  if (c_.cluster) return c_.cluster->wait(p, rq, w);
  auto j = find_job(p, rq, w.job_id, w.owner_uid);
  if (!j) return;
  if (answer_finished(p.to(), p.cred.uid, rq, *j)) return;
  const auto pending = std::count_if(waiters_.begin(), waiters_.end(), [&](const waiter& x) { return x.uid == p.cred.uid; });
  if (static_cast<std::uint64_t>(pending) >= c_.opt.max_waits_per_client)
    return c_.out.reply_error(p.to(), rq, proto::error_code::busy,
                       "you have " + std::to_string(pending) + " pending waits, the limit per client is " +
                           std::to_string(c_.opt.max_waits_per_client));
  waiters_.push_back(
      {p.to(), p.cred.uid, rq, *j, std::chrono::steady_clock::now() + std::chrono::milliseconds(w.timeout_ms)});
}

void client_requests::job_changed(shm::job_ref j) {
  for (const auto& w : take_if(waiters_, [&](const waiter& w) { return w.job == j; }))
    if (!answer_finished(w.to, w.uid, w.request_id, j)) waiters_.push_back(w);
}

std::size_t client_requests::closed(const std::string& identity, channel via) {
  if (c_.cluster) c_.cluster->closed(identity, via);
  return std::erase_if(waiters_, [&](const waiter& w) { return w.to.via == via && w.to.identity == identity; });
}

void client_requests::expire_waits() {
  if (c_.cluster) c_.cluster->expire_waits();
  const auto now = std::chrono::steady_clock::now();
  for (const auto& w : take_if(waiters_, [&](const waiter& w) { return w.deadline <= now; })) {
    auto rec = c_.jobs.get(w.job);
    if (!rec) {
      c_.out.reply_error(w.to, w.request_id, proto::error_code::unknown_job, "the job is no longer known");
      continue;
    }
    c_.out.send(w.to, proto::message{w.request_id, status_of(**rec)});
  }
}

}  // namespace cuzk::server
