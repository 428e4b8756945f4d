#include "requests/node_job_directory.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstring>

#include "job/result.hpp"
#include "proto/names.hpp"
#include "provers/proof_job.hpp"
#include "requests/job_lookup.hpp"
#include "requests/status_jobs.hpp"
#include "util/take_if.hpp"
#include "shm/failpoint.hpp"
#include "util/utf8.hpp"

namespace cuzk::server {

namespace {

proto::job_state job_state_of(const shm::job_record& rec, shm::job_state s) {
  switch (s) {
    case shm::job_state::done:
      return proto::job_state::done;
    case shm::job_state::failed:
      return proto::job_state::failed;
    default:
      break;
  }
  for (std::uint32_t p = 0; p < rec.n_partitions; ++p)
    if (shm::part_word::unpack(rec.parts[p].word.load(std::memory_order_acquire)).state != shm::part_state::queued)
      return proto::job_state::running;
  return proto::job_state::queued;
}

}  // namespace

proto::job_status job_status_of(const shm::job_record& rec, const shm::slot_table& slots) {
  proto::job_status st;
  st.job_id = std::string(shm::field_text(rec.job_id));
  st.state = job_state_of(rec, shm::job_word_state(rec));
  // Made valid and bounded on the way out too (a record of an older server may hold a cut character):
  // one bad string would make the whole reply undecodable for the operator.
  st.error = util::printable({rec.error, std::min<std::size_t>(rec.error_len, sizeof rec.error)},
                             proto::max_error_bytes, true);
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
      case shm::part_state::queued:
        ps.state = proto::partition_state::queued;
        break;
      case shm::part_state::done:
        ps.state = proto::partition_state::done;
        break;
      case shm::part_state::failed:
        ps.state = proto::partition_state::failed;
        break;
      case shm::part_state::slotted: {
        auto sw = slots.word(pw.slot);
        ps.state = !sw                                      ? proto::partition_state::queued
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
      ps.witness_us = part.timings.witness_us;
    }
    st.partitions.push_back(ps);
  }
  return st;
}

bool node_job_directory::answer_known(const submission& sub) {
  const auto& [p, rq, s, digest, uploaded] = sub;
  auto known = c_.jobs.find(s.job_id, p.cred.uid);  // idempotent: the same job, never proven twice
  if (!known) return false;
  auto rec = c_.jobs.get(*known);
  if (!rec) return false;
  if (std::memcmp((*rec)->digest, digest.data(), digest.size()) != 0)
    c_.out.reply_error(p.to(), rq, proto::error_code::conflict,
                       "job " + s.job_id +
                           " was submitted before with a different request (key, circuit, "
                           "inputs or witness); choose another job id");
  else
    c_.out.send(p.to(), proto::message{rq, proto::accepted{s.job_id, false, job_status_of(**rec, c_.slots).state}});
  return true;
}

bool node_job_directory::holds(const peer& p, const std::string& job_id) const {
  return c_.jobs.find(job_id, p.cred.uid).has_value();
}

std::pair<std::uint32_t, std::uint32_t> node_job_directory::critical_of(const peer& p) const {
  std::pair<std::uint32_t, std::uint32_t> n{0, 0};
  c_.jobs.for_each([&](shm::job_ref, const shm::job_record& rec) {
    if (rec.owner_uid == p.cred.uid && shm::job_word_state(rec) == shm::job_state::active &&
        rec.priority == priority::critical)
      ++n.first, n.second += rec.n_partitions;
  });
  return n;
}

void node_job_directory::refuse(const submission& sub, const std::string& why, proto::error_code code) {
  c_.out.reply_error(sub.p.to(), sub.rq, code, why);
}

void node_job_directory::record(const submission& sub, prepared r, std::function<void(recorded)> done) {
  const auto job = record(sub, r);
  done(recorded{job.has_value(), false, job});
}

std::optional<shm::job_ref> node_job_directory::record(const submission& sub, const prepared& r) {
  const auto& [p, rq, s, digest, uploaded] = sub;
  auto refuse = [&](proto::error_code code, const std::string& why) -> std::optional<shm::job_ref> {
    c_.out.reply_error(p.to(), rq, code, why);
    return std::nullopt;
  };
  if (!c_.loop.accepting) return refuse(proto::error_code::unavailable, "the server is shutting down");
  shm::job_request req{s.job_id, s.client, r.key_id, r.spec_json, s.priority, s.partitions};
  req.curve = static_cast<std::uint8_t>(r.pk->curve);
  req.owner_uid = p.cred.uid;
  req.digest = digest;
  req.retention_ns = c_.opt.retention_ns();
  auto out = c_.queue.submit(req);  // a new job's partitions wait from now on
  if (!out) {
    if (out.error() == shm::error::job_table_full)
      return refuse(proto::error_code::busy, "the job table is full of unfinished or unfetched jobs; retry later");
    return refuse(proto::error_code::internal,
                  std::string("cannot record the job: ") + std::string(to_string(out.error())));
  }
  if (out->conflict)
    return refuse(proto::error_code::conflict,
                  "job " + s.job_id + " was submitted before with a different request; choose another job id");
  shm::failpoint("server.submit.accepted");
  auto rec = c_.jobs.get(out->job);
  c_.out.send(p.to(), proto::message{
                          rq, proto::accepted{s.job_id, out->created,
                                              rec ? job_status_of(**rec, c_.slots).state : proto::job_state::queued}});
  if (!out->created) return std::nullopt;
  spdlog::info("job {} of uid {} accepted ({} partition(s), priority {})", util::printable(s.job_id), p.cred.uid,
               s.partitions, proto::name(s.priority));
  return out->job;
}

std::optional<shm::job_ref> node_job_directory::find_job(const peer& p, std::uint64_t rq, const std::string& job_id,
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

void node_job_directory::status(const peer& p, std::uint64_t rq, const proto::status_request& s) {
  const address id = p.to();
  if (s.cluster)
    return c_.out.reply_error(id, rq, proto::error_code::bad_request,
                              "this node is not in a cluster (it runs without --cluster-database)");
  if (s.job_id) {
    auto j = find_job(p, rq, *s.job_id, s.owner_uid);
    if (!j) return;
    auto rec = c_.jobs.get(*j);
    if (!rec) return c_.out.reply_error(id, rq, proto::error_code::unknown_job, "no job " + *s.job_id);
    c_.out.send(id, proto::message{rq, job_status_of(**rec, c_.slots)});
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
    return job_status_of(**rec, c_.slots);
  });
  c_.node.describe(st, all);
  st.capacity = capacity_(p);
  c_.out.send(id, proto::message{rq, std::move(st)});
}

// A done job's reply decodes each partition's stored proof and formats it as
// JSON: up to 16 partitions, milliseconds each, so it is built on the replies
// thread, never on the loop, and a client has at most max_fetches_per_client
// of them in flight.
bool node_job_directory::answer_finished(const address& id, uid_t uid, std::uint64_t rq, shm::job_ref j) {
  auto rec = c_.jobs.get(j);
  if (!rec) return false;
  const auto state = shm::job_word_state(**rec);
  if (state == shm::job_state::failed) {
    if (c_.out.send(id, proto::message{rq, job_status_of(**rec, c_.slots)})) c_.jobs.mark_fetched(j);
    return true;
  }
  if (state != shm::job_state::done) return false;
  auto& fetching = fetching_by_uid_[uid];
  if (fetching >= c_.opt.max_fetches_per_client) {
    c_.out.reply_error(id, rq, proto::error_code::busy,
                       "you have " + std::to_string(fetching) +
                           " proof replies being prepared, the limit per client is " +
                           std::to_string(c_.opt.max_fetches_per_client) + "; retry when they are answered");
    return true;
  }
  ++fetching;
  const shm::job_record* r = *rec;  // a done record does not change until it is fetched and evicted, on this loop
  auto phases = job_status_of(*r, c_.slots).partitions;
  boost::asio::post(c_.replies, [this, id, uid, rq, j, r, phases = std::move(phases)] {
    proto::proof_reply pr;
    pr.job_id = std::string(shm::field_text(r->job_id));
    std::optional<std::string> error;
    for (std::uint32_t p = 0; p < r->n_partitions && !error; ++p) {
      const auto& part = r->parts[p];
      try {
        auto res = job::result_to_json({part.result, std::min<std::size_t>(part.result_len, shm::result_bytes)});
        pr.partitions.push_back({std::move(res.proof), std::move(res.public_signals), phases[p]});
      } catch (const std::exception& e) {
        error = "job " + pr.job_id + ": " + e.what();
      }
    }
    boost::asio::post(c_.io, [this, id, uid, rq, j, pr = std::move(pr), error]() mutable {
      if (--fetching_by_uid_[uid] == 0) fetching_by_uid_.erase(uid);
      // Evicted while its reply was built: what was read may be another job's.
      if (!c_.jobs.get(j))
        return c_.out.reply_error(id, rq, proto::error_code::unknown_job, "the job is no longer known");
      if (error) return c_.out.reply_error(id, rq, proto::error_code::internal, *error);
      if (c_.out.send(id, proto::message{rq, std::move(pr)})) c_.jobs.mark_fetched(j);
    });
  });
  return true;
}

void node_job_directory::fetch(const peer& p, std::uint64_t rq, const proto::fetch& f) {
  auto j = find_job(p, rq, f.job_id, f.owner_uid);
  if (!j) return;
  if (answer_finished(p.to(), p.cred.uid, rq, *j)) return;
  auto rec = c_.jobs.get(*j);
  if (rec) c_.out.send(p.to(), proto::message{rq, job_status_of(**rec, c_.slots)});
}

void node_job_directory::wait(const peer& p, std::uint64_t rq, const proto::wait_request& w) {
  auto j = find_job(p, rq, w.job_id, w.owner_uid);
  if (!j) return;
  if (answer_finished(p.to(), p.cred.uid, rq, *j)) return;
  const auto pending =
      std::count_if(waiters_.begin(), waiters_.end(), [&](const waiter& x) { return x.uid == p.cred.uid; });
  if (static_cast<std::uint64_t>(pending) >= c_.opt.max_waits_per_client)
    return c_.out.reply_error(p.to(), rq, proto::error_code::busy,
                              "you have " + std::to_string(pending) + " pending waits, the limit per client is " +
                                  std::to_string(c_.opt.max_waits_per_client));
  waiters_.push_back(
      {p.to(), p.cred.uid, rq, *j, std::chrono::steady_clock::now() + std::chrono::milliseconds(w.timeout_ms)});
}

// The job fails at once and leaves the queue; a partition in a worker's hands is discarded when it comes back
// (provers drop a FILLED slot of a failed job), and its files go as for any job that ended.
void node_job_directory::cancel(const peer& p, std::uint64_t rq, const proto::cancel_request& c) {
  auto j = find_job(p, rq, c.job_id, c.owner_uid);
  if (!j) return;
  if (c_.jobs.fail_job(*j, cancelled_text)) {
    spdlog::info("job {} cancelled by its client", util::printable(c.job_id));
    c_.queue.drop(*j);
    job_changed(*j);
  }
  if (auto rec = c_.jobs.get(*j)) c_.out.send(p.to(), proto::message{rq, job_status_of(**rec, c_.slots)});
}

void node_job_directory::job_changed(shm::job_ref j) {
  for (const auto& w : util::take_if(waiters_, [&](const waiter& w) { return w.job == j; }))
    if (!answer_finished(w.to, w.uid, w.request_id, j)) waiters_.push_back(w);
}

std::size_t node_job_directory::closed(const std::string& identity, channel via) {
  return std::erase_if(waiters_, [&](const waiter& w) { return w.to.via == via && w.to.identity == identity; });
}

void node_job_directory::expire_waits() {
  const auto now = std::chrono::steady_clock::now();
  for (const auto& w : util::take_if(waiters_, [&](const waiter& w) { return w.deadline <= now; })) {
    auto rec = c_.jobs.get(w.job);
    if (!rec) {
      c_.out.reply_error(w.to, w.request_id, proto::error_code::unknown_job, "the job is no longer known");
      continue;
    }
    c_.out.send(w.to, proto::message{w.request_id, job_status_of(**rec, c_.slots)});
  }
}

}  // namespace cuzk::server
