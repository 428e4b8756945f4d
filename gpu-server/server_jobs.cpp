// Client requests: Submit (idempotent by job id), Status, Fetch, Wait.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>

#include "circuits/registry.hpp"
#include "groth16/prover.hpp"
#include "io/snarkjs_json.hpp"
#include "job/result.hpp"
#include "job/spec.hpp"
#include "r1cs/binfile.hpp"
#include "r1cs/error.hpp"
#include "r1cs/wtns_file.hpp"
#include "gpu_report.hpp"
#include "job_lookup.hpp"
#include "proof_timings.hpp"
#include "request_digest.hpp"
#include "server.hpp"
#include "shm/failpoint.hpp"
#include "shm/srs_region.hpp"
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

proto::job_status server::job_status_of(shm::job_ref j, const shm::job_record& rec) const {
  (void)j;
  proto::job_status st;
  st.job_id = std::string(shm::field_text(rec.job_id));
  st.state = job_state_of(rec, shm::job_word_state(rec));
  // Made valid and bounded on the way out too (a record of an older server may hold a cut character):
  // one bad string would make the whole reply undecodable for the operator.
  st.error = util::printable({rec.error, std::min<std::size_t>(rec.error_len, sizeof rec.error)}, proto::max_error_bytes, true);
  st.submitted_ns = rec.submitted_ns;
  st.finished_ns = rec.finished_ns;
  st.priority = static_cast<proto::priority>(rec.priority);
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
        auto sw = slots_->word(pw.slot);
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
      ps.timings = to_proto(part.timings);
      ps.gpu = part.timings.gpu;
    }
    st.partitions.push_back(ps);
  }
  return st;
}

std::optional<std::string> server::precheck(const proto::submit& s) const {
  if (!shm::is_key_id(s.zkey) && !preloaded_.count(std::filesystem::path(s.zkey).lexically_normal().string()))
    if (auto why = key_files_.lexical_refusal(s.zkey)) return why;
  if (const auto* c = std::get_if<proto::circom_work>(&s.work)) {
    if (auto why = witness_files_.lexical_refusal(c->wtns)) return why;
    if (c->r1cs)
      if (auto why = witness_files_.lexical_refusal(*c->r1cs)) return why;
  }
  return std::nullopt;
}

std::uint32_t server::entries_of(uid_t uid) const {
  const auto retention_ns = static_cast<std::uint64_t>(opt_.retention.count()) * 1000000000ULL;
  std::uint32_t n = 0;
  jobs_->for_each([&](shm::job_ref, const shm::job_record& rec) {
    if (rec.owner_uid != uid) return;
    const auto st = shm::job_word_state(rec);
    n += st == shm::job_state::active ||
         ((st == shm::job_state::done || st == shm::job_state::failed) && !shm::evictable(rec, retention_ns));
  });
  return n;
}

std::uint32_t server::entry_limit() const {
  const auto half = static_cast<std::uint32_t>(std::max<std::uint64_t>(1, jobs_->capacity() / 2));
  return std::min(opt_.max_jobs_per_client, half);
}

// The loop does only what is cheap: the idempotency and conflict check
// against the job table, the per-client and global limits, and the checks
// that need no file; everything that reads a file or counts a circuit runs on
// the preparation pool, which serves the clients' queues in turn.
void server::on_submit(const peer& p, std::uint64_t rq, const proto::submit& s) {
  ++counters_.submits;
  if (!accepting_) return reply_error(p.identity, rq, proto::error_code::unavailable, "the server is shutting down");
  const auto digest = request_digest(s);
  if (auto known = jobs_->find(s.job_id, p.cred.uid)) {  // idempotent: the same job, never proven twice
    auto rec = jobs_->get(*known);
    if (rec) {
      if (std::memcmp((*rec)->digest, digest.data(), digest.size()) != 0)
        return reply_error(p.identity, rq, proto::error_code::conflict,
                           "job " + s.job_id + " was submitted before with a different request (key, circuit, "
                           "inputs or witness); choose another job id");
      send(p.identity, proto::message{rq, proto::accepted{s.job_id, false, job_status_of(*known, **rec).state}});
      return;
    }
  }
  if (auto why = precheck(s)) return reply_error(p.identity, rq, proto::error_code::bad_request, *why);
  const auto preparing = preparing_by_uid_.count(p.cred.uid) ? preparing_by_uid_[p.cred.uid] : 0u;
  const std::uint32_t held = entries_of(p.cred.uid) + preparing, limit = entry_limit();
  if (held >= limit)
    return reply_error(p.identity, rq, proto::error_code::busy,
                       "you hold " + std::to_string(held) + " jobs (unfinished, or finished and not fetched), the " +
                           "limit per client is " + std::to_string(limit) + "; fetch or wait for some");
  if (preparing >= opt_.max_preparing_per_client)
    return reply_error(p.identity, rq, proto::error_code::busy,
                       "you have " + std::to_string(preparing) + " submissions being prepared, the limit per client is " +
                           std::to_string(opt_.max_preparing_per_client) + "; retry when they are answered");
  if (to_prepare_.size() + prep_running_ >= opt_.max_preparing)
    return reply_error(p.identity, rq, proto::error_code::busy,
                       "the server is preparing " + std::to_string(to_prepare_.size() + prep_running_) +
                           " submissions; retry shortly");
  ++preparing_by_uid_[p.cred.uid];
  to_prepare_.push(p.cred.uid, submission{p, rq, s, digest});
  start_preparing();
}

void server::start_preparing() {
  while (prep_running_ < std::max(1u, opt_.prepare_threads)) {
    auto next = to_prepare_.pop();
    if (!next) return;
    ++prep_running_;
    boost::asio::post(prep_, [this, sub = std::move(*next)]() mutable {
      prepared r = prepare(sub.s, sub.p.cred);
      boost::asio::post(io_, [this, sub = std::move(sub), r = std::move(r)]() mutable {
        --prep_running_;
        if (--preparing_by_uid_[sub.p.cred.uid] == 0) preparing_by_uid_.erase(sub.p.cred.uid);
        on_prepared(sub.p, sub.rq, sub.s, sub.digest, std::move(r));
        start_preparing();
      });
    });
  }
}

void server::on_prepared(const peer& p, std::uint64_t rq, const proto::submit& s, std::array<std::uint8_t, 16> digest,
                         prepared r) {
  if (r.code) return reply_error(p.identity, rq, *r.code, r.error);
  if (!accepting_) return reply_error(p.identity, rq, proto::error_code::unavailable, "the server is shutting down");
  ready_keys_[r.key_id] = r.pk;
  shm::job_request req{s.job_id, s.client, r.key_id, r.spec_json, static_cast<shm::priority>(s.priority), s.partitions};
  req.curve = static_cast<std::uint8_t>(r.pk->curve);
  req.owner_uid = p.cred.uid;
  req.digest = digest;
  req.retention_ns = static_cast<std::uint64_t>(opt_.retention.count()) * 1000000000ULL;
  auto out = jobs_->submit(req);
  if (!out) {
    if (out.error() == shm::error::job_table_full)
      return reply_error(p.identity, rq, proto::error_code::busy,
                         "the job table is full of unfinished or unfetched jobs; retry later");
    return reply_error(p.identity, rq, proto::error_code::internal,
                       std::string("cannot record the job: ") + std::string(to_string(out.error())));
  }
  if (out->conflict)
    return reply_error(p.identity, rq, proto::error_code::conflict,
                       "job " + s.job_id + " was submitted before with a different request; choose another job id");
  shm::failpoint("server.submit.accepted");
  auto rec = jobs_->get(out->job);
  if (out->created && rec)
    for (std::uint32_t i = 0; i < s.partitions; ++i)
      queue_.push({static_cast<shm::priority>(s.priority), (*rec)->seq, out->job, i});
  send(p.identity, proto::message{rq, proto::accepted{s.job_id, out->created,
                                                     rec ? job_status_of(out->job, **rec).state : proto::job_state::queued}});
  if (out->created)
    spdlog::info("job {} of uid {} accepted ({} partition(s), priority {})", util::printable(s.job_id), p.cred.uid, s.partitions,
                 int(s.priority));
  dispatch();
}

std::optional<shm::job_ref> server::find_job(const peer& p, std::uint64_t rq, const std::string& job_id,
                                             std::optional<std::uint32_t> owner) {
  // One scan: every live record with this id, by owner (a record evicted
  // meanwhile fails the generation check of the get() that follows).
  std::vector<uid_t> owners;
  std::vector<shm::job_ref> refs;
  jobs_->for_each([&](shm::job_ref j, const shm::job_record& rec) {
    if (shm::job_word_state(rec) != shm::job_state::reserved && shm::field_text(rec.job_id) == job_id) {
      owners.push_back(rec.owner_uid);
      refs.push_back(j);
    }
  });
  const auto o = owner_of_job(p.cred.uid, is_operator(p.cred.uid), owner, owners);
  if (o.uid)
    for (std::size_t i = 0; i < owners.size(); ++i)
      if (owners[i] == *o.uid) return refs[i];
  if (!o.ambiguous.empty())
    reply_error(p.identity, rq, proto::error_code::bad_request, ambiguous_job(job_id, o.ambiguous));
  else
    reply_error(p.identity, rq, proto::error_code::unknown_job, "no job " + job_id);
  return std::nullopt;
}

void server::on_status(const peer& p, std::uint64_t rq, const proto::status_request& s) {
  const std::string& id = p.identity;
  if (s.job_id) {
    auto j = find_job(p, rq, *s.job_id, s.owner_uid);
    if (!j) return;
    auto rec = jobs_->get(*j);
    if (!rec) return reply_error(id, rq, proto::error_code::unknown_job, "no job " + *s.job_id);
    send(id, proto::message{rq, job_status_of(*j, **rec)});
    return;
  }
  // A client sees its own jobs; operators see every job, the slots and the workers.
  const bool all = is_operator(p.cred.uid);
  proto::status_reply st;
  std::vector<std::pair<std::uint64_t, shm::job_ref>> jobs;
  jobs_->for_each([&](shm::job_ref j, const shm::job_record& rec) {
    if (shm::job_word_state(rec) != shm::job_state::reserved && (all || rec.owner_uid == p.cred.uid))
      jobs.emplace_back(rec.seq, j);
  });
  std::sort(jobs.begin(), jobs.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
  // Bounded by bytes, not records: a job's status is at most its id, client,
  // error text and partitions; the reply stays far below the frame limit.
  std::size_t bytes = 0;
  std::size_t i = 0;
  for (; i < jobs.size(); ++i) {
    auto rec = jobs_->get(jobs[i].second);
    if (!rec) continue;
    auto js = job_status_of(jobs[i].second, **rec);
    const std::size_t cost = 64 + js.job_id.size() + js.client.size() + js.error.size() + 160 * js.partitions.size();
    if (bytes + cost > status_job_bytes) break;
    bytes += cost;
    st.jobs.push_back(std::move(js));
  }
  st.jobs_omitted = static_cast<std::uint32_t>(jobs.size() - i);
  st.hung_timeout_ms = static_cast<std::uint32_t>(std::min<std::int64_t>(opt_.hung_timeout.count(), UINT32_MAX));
  // Every client sees the GPUs (load and memory help it plan); only operators
  // their resident key ids: a key id is the hash of a key file, so a client
  // holding a file could tell which circuits other users are proving.
  st.gpus = gpu_report(backend_->gpus(), all);
  if (!all) {
    send(id, proto::message{rq, std::move(st)});
    return;
  }
  for (std::uint64_t i = 0; i < slots_->size(); ++i) {
    auto w = slots_->word(i);
    if (!w) continue;
    st.slots.push_back({i, slots_->class_of(i), static_cast<proto::slot_state>(static_cast<int>(w->state) + 1),
                        w->generation, w->owner});
  }
  const auto now = shm::boot_ns();
  for (const auto& [lease, w] : workers_) {
    const auto* e = shm::lease_entries(*region_) + lease;
    const auto hb = e->heartbeat_ns.load(std::memory_order_relaxed);
    proto::worker_status ws{lease, w.name, w.pid, w.busy ? proto::worker_state::busy : proto::worker_state::idle,
                            hb && now > hb ? (now - hb) / 1000000 : 0};
    if (shm::is_hung(*region_, lease, static_cast<std::uint64_t>(opt_.hung_timeout.count()) * 1000000ULL))
      ws.state = proto::worker_state::hung;
    st.workers.push_back(ws);
  }
  send(id, proto::message{rq, std::move(st)});
}


// A done job's reply decodes each partition's stored proof and formats it as
// JSON: up to 16 partitions, milliseconds each, so it is built on the replies
// thread, never on the loop, and a client has at most max_fetches_per_client
// of them in flight.
bool server::answer_finished(const std::string& id, uid_t uid, std::uint64_t rq, shm::job_ref j) {
  auto rec = jobs_->get(j);
  if (!rec) return false;
  const auto state = shm::job_word_state(**rec);
  if (state == shm::job_state::failed) {
    if (send(id, proto::message{rq, job_status_of(j, **rec)})) jobs_->mark_fetched(j);
    return true;
  }
  if (state != shm::job_state::done) return false;
  auto& fetching = fetching_by_uid_[uid];
  if (fetching >= opt_.max_fetches_per_client) {
    reply_error(id, rq, proto::error_code::busy,
                "you have " + std::to_string(fetching) + " proof replies being prepared, the limit per client is " +
                    std::to_string(opt_.max_fetches_per_client) + "; retry when they are answered");
    return true;
  }
  ++fetching;
  const shm::job_record* r = *rec;  // a done record does not change until it is fetched and evicted, on this loop
  boost::asio::post(replies_, [this, id, uid, rq, j, r] {
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
    boost::asio::post(io_, [this, id, uid, rq, j, pr = std::move(pr), error]() mutable {
      if (--fetching_by_uid_[uid] == 0) fetching_by_uid_.erase(uid);
      // Evicted while its reply was built: what was read may be another job's.
      if (!jobs_->get(j)) return reply_error(id, rq, proto::error_code::unknown_job, "the job is no longer known");
      if (error) return reply_error(id, rq, proto::error_code::internal, *error);
      if (send(id, proto::message{rq, std::move(pr)})) jobs_->mark_fetched(j);
    });
  });
  return true;
}

void server::on_fetch(const peer& p, std::uint64_t rq, const proto::fetch& f) {
  auto j = find_job(p, rq, f.job_id, f.owner_uid);
  if (!j) return;
  if (answer_finished(p.identity, p.cred.uid, rq, *j)) return;
  auto rec = jobs_->get(*j);
  if (rec) send(p.identity, proto::message{rq, job_status_of(*j, **rec)});
}

void server::on_wait(const peer& p, std::uint64_t rq, const proto::wait_request& w) {
  auto j = find_job(p, rq, w.job_id, w.owner_uid);
  if (!j) return;
  if (answer_finished(p.identity, p.cred.uid, rq, *j)) return;
  const auto pending = std::count_if(waiters_.begin(), waiters_.end(), [&](const waiter& x) { return x.uid == p.cred.uid; });
  if (static_cast<std::uint64_t>(pending) >= opt_.max_waits_per_client)
    return reply_error(p.identity, rq, proto::error_code::busy,
                       "you have " + std::to_string(pending) + " pending waits, the limit per client is " +
                           std::to_string(opt_.max_waits_per_client));
  waiters_.push_back(
      {p.identity, p.cred.uid, rq, *j, std::chrono::steady_clock::now() + std::chrono::milliseconds(w.timeout_ms)});
}

void server::notify_waiters(shm::job_ref j) {
  std::vector<waiter> ready;
  std::erase_if(waiters_, [&](const waiter& w) {
    if (!(w.job == j)) return false;
    ready.push_back(w);
    return true;
  });
  for (const auto& w : ready)
    if (!answer_finished(w.identity, w.uid, w.request_id, j)) waiters_.push_back(w);
}

}  // namespace cuzk::server
