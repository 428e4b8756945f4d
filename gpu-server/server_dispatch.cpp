// Workers, slots and proofs: FREE slots go to idle workers, FILLED slots to
// the prover thread, dead workers' slots back to the queue.
#include <signal.h>
#include <spdlog/spdlog.h>

#include <type_traits>

#include "backend/fault.hpp"
#include "groth16/verifier.hpp"
#include "job/result.hpp"
#include "job/slot_buffers.hpp"
#include "job/spec.hpp"
#include "proof_timings.hpp"
#include "shm/failpoint.hpp"
#include "shm/reclaim.hpp"
#include "server.hpp"
#include "util/utf8.hpp"

namespace cuzk::server {

namespace {

shm::job_state state_of(const shm::job_record& rec) { return shm::job_word_state(rec); }

/* A QUEUED partition whose synthesis has started `max` times (a synthesis
   that ends without a filled slot or an error ended its worker: killed,
   for memory most likely, hung, or past its deadline) is failed rather than
   requeued: its input is poison, and other jobs must get the workers. */
bool refuse_poison(shm::job_table& jobs, shm::job_ref j, const shm::job_record& rec, std::uint32_t p, unsigned max,
                   const std::string& last) {
  const std::uint32_t n = rec.parts[p].syntheses.load(std::memory_order_relaxed);
  if (n < max) return false;
  const std::string why = "synthesis of partition " + std::to_string(p) + " ended its worker " + std::to_string(n) +
                          " times (last: " + last + "); the job's input is refused";
  if (!jobs.fail(j, p, why)) return false;
  spdlog::warn("job {} ({}): {}", j.index, shm::field_text(rec.job_id), why);
  return true;
}

constexpr const char* died_unseen = "its worker died while synthesizing it: killed, out of memory?";

}  // namespace

// The queue mirrors the job table's QUEUED partitions. Other processes change
// the table too (a new worker that takes a dead worker's lease entry reclaims
// its slot and requeues its partition), so every tick resynchronizes.
void server::rebuild_queues(bool log) {
  queue_.clear();
  std::size_t n = 0;
  std::vector<shm::job_ref> refused;
  jobs_->for_each([&](shm::job_ref j, const shm::job_record& rec) {
    if (state_of(rec) != shm::job_state::active) return;
    for (std::uint32_t p = 0; p < rec.n_partitions; ++p)
      if (shm::part_word::unpack(rec.parts[p].word.load(std::memory_order_acquire)).state == shm::part_state::queued) {
        if (refuse_poison(*jobs_, j, rec, p, opt_.max_synth_crashes, died_unseen)) {
          refused.push_back(j);
          break;
        }
        queue_.push({static_cast<shm::priority>(rec.priority), rec.seq, j, p});
        ++n;
      }
  });
  for (auto j : refused) {
    ++counters_.failed;
    queue_.drop(j);
    notify_waiters(j);
  }
  if (n && log) spdlog::info("{} partition(s) queued from the job table", n);
}

std::optional<std::uint32_t> server::class_for_job(const shm::job_record& rec) {
  auto pk = ready_key(std::string(shm::field_text(rec.key_id)));
  if (!pk) return std::nullopt;
  return slots_->class_for(pk->domain_size, pk->n_vars);
}

proto::assign server::assign_message(std::uint64_t slot, std::uint64_t gen, shm::job_ref j, std::uint32_t partition,
                                     const shm::job_record& rec) const {
  return proto::assign{slot, gen, j.index, j.generation, partition, std::string(shm::field_text(rec.key_id)),
                       std::string(rec.spec, std::min<std::size_t>(rec.spec_len, shm::spec_bytes))};
}

// A worker message speaks for a lease only when that lease is held, by a
// worker, by the very process that sent it (SO_PEERCRED pid): nobody else
// (a client, the server's own lease, a worker naming another's lease) can
// claim slots or receive job inputs.
bool server::lease_of_sender(const peer& p, std::uint32_t lease) const {
  if (lease >= region_->header().lease_capacity || !shm::is_alive(*region_, lease)) return false;
  const auto* e = shm::lease_entries(*region_) + lease;
  return e->role == static_cast<std::uint32_t>(shm::role::worker) && e->pid == p.cred.pid;
}

std::optional<std::uint32_t> server::sender_lease(const peer& p) const {
  for (const auto& [lease, w] : workers_)
    if (w.identity == p.identity && lease_of_sender(p, lease)) return lease;
  return std::nullopt;
}

void server::on_ready(const peer& p, const proto::ready& r) {
  if (!lease_of_sender(p, r.lease)) {
    ++counters_.refused;
    reply_error(p.identity, 0, proto::error_code::bad_request,
                "lease " + std::to_string(r.lease) + " is not a worker lease held by your process", true);
    return;
  }
  auto& w = workers_[r.lease];
  const bool is_new = w.identity.empty();
  w.identity = p.identity;
  w.name = r.name;
  w.pid = p.cred.pid;
  w.uid = p.cred.uid;
  w.capacity = r.capacity;
  w.busy.reset();
  w.seen = std::chrono::steady_clock::now();
  if (is_new) spdlog::info("worker {} (lease {}, pid {}, uid {}) ready", util::printable(r.name), r.lease, p.cred.pid, p.cred.uid);
  // A slot still ASSIGNED to an idle worker: its Assign was lost (a server
  // restart between the region write and the send). Send it again.
  for (std::uint64_t s = 0; s < slots_->size(); ++s) {
    auto word = slots_->word(s);
    if (!word || word->state != shm::slot_state::assigned || word->owner != r.lease) continue;
    auto e = slots_->entry(s);
    shm::job_ref j{(*e)->job, (*e)->job_generation};
    auto rec = jobs_->get(j);
    if (!rec) continue;
    if (send(p.identity, proto::message{0, assign_message(s, word->generation, j, (*e)->partition, **rec)}, true)) {
      w.busy = std::pair(s, word->generation);
      break;
    }
  }
  dispatch();
}

void server::on_filled(const peer& p, const proto::filled& f) {
  const auto lease = sender_lease(p);
  if (!lease) return (void)++counters_.refused;
  auto word = slots_->word(f.slot);
  if (!word || word->generation != f.generation) {
    ++counters_.stale;
    return;
  }
  for (auto& [lease, w] : workers_)
    if (w.busy && w.busy->first == f.slot && w.busy->second == f.generation) w.busy.reset();
  shm::failpoint("server.filled");
  dispatch();
}

void server::on_synth_failed(const peer& p, const proto::synth_failed& f) {
  const auto sender = sender_lease(p);
  if (!sender) return (void)++counters_.refused;
  auto e0 = slots_->entry(f.slot);
  // Only the worker that held the slot can report its failure (the slot is FREE again, its job FAILED).
  if (!e0 || !workers_.count(*sender) || !workers_[*sender].busy || workers_[*sender].busy->first != f.slot ||
      workers_[*sender].busy->second != f.generation)
    return (void)++counters_.stale;
  for (auto& [lease, w] : workers_)
    if (w.busy && w.busy->first == f.slot && w.busy->second == f.generation) w.busy.reset();
  if (auto e = slots_->entry(f.slot)) {
    shm::job_ref j{(*e)->job, (*e)->job_generation};
    spdlog::warn("job {} partition {}: {}", j.index, (*e)->partition, util::printable(f.error));
    ++counters_.failed;
    queue_.drop(j);
    notify_waiters(j);
  }
  dispatch();
}

void server::on_heartbeat(const peer& p, const proto::heartbeat& h) {
  if (!lease_of_sender(p, h.lease)) return (void)++counters_.refused;
  auto it = workers_.find(h.lease);
  if (it == workers_.end()) {  // a busy worker that has not re-announced since a restart
    it = workers_.emplace(h.lease, worker{}).first;
    it->second.busy = std::pair(h.slot, h.generation);
    it->second.pid = p.cred.pid;
    it->second.uid = p.cred.uid;
  }
  it->second.identity = p.identity;
  it->second.seen = std::chrono::steady_clock::now();
}

void server::on_bye(const peer& p, const proto::bye& b) {
  if (!lease_of_sender(p, b.lease)) return (void)++counters_.refused;
  workers_.erase(b.lease);
}

// A worker that holds a slot but has not heartbeaten for hung_timeout is
// hung (stopped, deadlocked, swapping): it cannot be reclaimed while alive,
// since it might still write into the slot, so it is killed (after checking
// that the pid still is the process that took the lease) and reclaimed as
// dead on the next tick; systemd restarts it.
void server::kill_hung() {
  const auto timeout = static_cast<std::uint64_t>(opt_.hung_timeout.count()) * 1000000ULL;
  for (std::uint64_t s = 0; s < slots_->size(); ++s) {
    auto w = slots_->word(s);
    if (!w || w->state != shm::slot_state::assigned || !shm::is_hung(*region_, w->owner, timeout)) continue;
    const auto* e = shm::lease_entries(*region_) + w->owner;
    if (e->pid <= 0 || shm::process_start_time(e->pid) != e->start_time) continue;
    spdlog::warn("worker {} (lease {}, pid {}) holds slot {} and has not heartbeaten for {} ms: killing it",
                 util::printable(shm::field_text(e->name)), w->owner, e->pid, s,
                 opt_.hung_timeout.count());
    ::kill(e->pid, SIGKILL);
  }
}

void server::reap_dead() {
  kill_hung();
  std::erase_if(workers_, [&](const auto& kv) { return !shm::is_alive(*region_, kv.first); });
  bool reclaimed = false;
  std::vector<shm::job_ref> refused;
  for (std::uint64_t s = 0; s < slots_->size(); ++s) {
    auto w = slots_->word(s);
    if (!w || w->state != shm::slot_state::assigned || shm::is_alive(*region_, w->owner)) continue;
    auto e = slots_->entry(s);
    const std::optional<std::pair<shm::job_ref, std::uint32_t>> held =
        e ? std::optional(std::pair(shm::job_ref{(*e)->job, (*e)->job_generation}, (*e)->partition)) : std::nullopt;
    const auto* le = shm::lease_entries(*region_) + w->owner;
    const std::string last = "worker " + std::string(shm::field_text(le->name)) + " (pid " + std::to_string(le->pid) +
                             ") died while synthesizing it: killed, out of memory?";
    auto rep = shm::reclaim(*region_, shm::reclaim_options{w->owner, false});
    if (rep && rep->assigned_freed) {
      spdlog::warn("worker lease {} died: {} slot(s) freed, {} partition(s) requeued", w->owner,
                   rep->assigned_freed, rep->partitions_requeued);
      reclaimed = true;
    }
    if (!held) continue;
    auto rec = jobs_->get(held->first);
    auto pw = jobs_->part(held->first, held->second);
    if (rec && pw && pw->state == shm::part_state::queued &&
        refuse_poison(*jobs_, held->first, **rec, held->second, opt_.max_synth_crashes, last))
      refused.push_back(held->first);
  }
  for (auto j : refused) {
    ++counters_.failed;
    notify_waiters(j);
  }
  if (reclaimed) spdlog::info("requeued the dead worker's partitions");
  rebuild_queues(false);
}

void server::dispatch() {
  if (stopping_) return;
  assign_work();
  start_proofs();
}

void server::assign_work() {
  for (auto& [lease, w] : workers_) {
    if (w.busy || w.identity.empty()) continue;
    std::optional<std::uint64_t> slot;
    std::vector<shm::job_ref> gone;
    auto q = queue_.pop_first([&](const queued_partition& q) {
      auto rec = jobs_->get(q.job);
      if (!rec || state_of(**rec) != shm::job_state::active) {
        gone.push_back(q.job);
        return false;
      }
      auto cls = class_for_job(**rec);
      if (!cls) return false;
      if (w.capacity && region_->header().classes[*cls].domain > w.capacity) return false;
      slot = slots_->find_free(*cls);
      return slot.has_value();
    });
    for (auto j : gone) queue_.drop(j);
    if (!q) return;  // nothing fits any free slot now
    auto rec = jobs_->get(q->job);
    auto word = slots_->word(*slot);
    if (!rec || !word) continue;
    if (!jobs_->mark_slotted(q->job, q->partition, static_cast<std::uint32_t>(*slot))) continue;
    auto a = slots_->assign(*slot, word->generation, lease, q->job.index, q->job.generation, q->partition);
    if (!a) {
      (void)jobs_->requeue(q->job, q->partition);
      queue_.push(*q);
      continue;
    }
    if (!send(w.identity, proto::message{0, assign_message(*slot, word->generation, q->job, q->partition, **rec)},
              true)) {  // the worker went away: hand the slot back
      (void)slots_->abandon(*slot, word->generation, lease);
      (void)jobs_->requeue(q->job, q->partition);
      queue_.push(*q);
      w.identity.clear();
      continue;
    }
    shm::failpoint("server.assign.sent");
    w.busy = std::pair(*slot, word->generation);
  }
}

/* The FILLED slot to prove next: the highest priority, then the oldest
   job. Slots whose partition no longer waits for them are discarded. */
std::optional<std::uint64_t> server::next_filled() {
  std::optional<std::tuple<int, std::uint64_t, std::uint64_t>> best;  // (priority, seq, slot)
  for (std::uint64_t s = 0; s < slots_->size(); ++s) {
    auto w = slots_->word(s);
    if (!w || w->state != shm::slot_state::filled) continue;
    auto e = slots_->entry(s);
    if (!e) continue;
    auto rec = jobs_->get({(*e)->job, (*e)->job_generation});
    const auto pw = rec && (*e)->partition < (*rec)->n_partitions
                        ? std::optional(shm::part_word::unpack((*rec)->parts[(*e)->partition].word.load()))
                        : std::nullopt;
    if (!rec || state_of(**rec) != shm::job_state::active || !pw || pw->state != shm::part_state::slotted ||
        pw->slot != s) {
      (void)slots_->discard(s, w->generation);  // its job failed, was proven already, or moved to another slot
      continue;
    }
    std::tuple<int, std::uint64_t, std::uint64_t> k{(*rec)->priority, (*rec)->seq, s};
    if (!best || k < *best) best = k;
  }
  if (!best) return std::nullopt;
  return std::get<2>(*best);
}

/* The proof of one FILLED slot, its key parsed and its blinding read; nullopt when it cannot start now. */
std::optional<server::proof_job> server::proof_of(std::uint64_t s) {
  auto w = slots_->word(s);
  auto e = slots_->entry(s);
  if (!w || !e) return std::nullopt;
  const shm::job_ref j{(*e)->job, (*e)->job_generation};
  auto rec = jobs_->get(j);
  if (!rec) return std::nullopt;
  proof_job pj{s, w->generation, j, (*e)->partition, nullptr, std::string(shm::field_text((*rec)->key_id)),
               std::nullopt};
  pj.pk = ready_key(pj.key_id);
  if (!pj.pk) return std::nullopt;  // parsing on the pool; dispatch runs again when it is ready
  try {
    if ((*e)->curve != std::uint64_t(pj.pk->curve))
      throw std::runtime_error("slot " + std::to_string(s) + " was filled with elements of another curve than the key's (" +
                               std::string(curves::display_name(pj.pk->curve)) + ")");
    pj.blinding = job::spec::from_json(std::string_view((*rec)->spec, (*rec)->spec_len)).blinding;
  } catch (const std::exception& ex) {
    (void)jobs_->fail(j, pj.partition, ex.what());
    (void)slots_->discard(s, w->generation);
    notify_waiters(j);
    return std::nullopt;
  }
  return pj;
}

/* As many proofs in flight as the backend has workers (DESIGN §5: two per GPU). */
void server::start_proofs() {
  while (!stopping_ && !held_ && proving_ < provers_.size()) {
    const auto s = next_filled();
    if (!s) return;
    auto pj = proof_of(*s);
    if (!pj) return;
    if (!slots_->start_proving(pj->slot, pj->gen, lease_->index())) return;
    ++proving_;
    {
      std::lock_guard lk(mu_);
      to_prove_.push_back(std::move(*pj));
    }
    cv_.notify_one();
  }
}

void server::prover_loop() {
  for (;;) {
    proof_job pj;
    {
      std::unique_lock lk(mu_);
      cv_.wait(lk, [&] { return prover_exit_ || !to_prove_.empty(); });
      if (to_prove_.empty()) return;
      pj = std::move(to_prove_.front());
      to_prove_.pop_front();
    }
    proof_done d{pj, {}, {}, shm::now_ns(), 0, {}, 0, std::nullopt};
    try {
      auto payload = slots_->payload(pj.slot);
      if (!payload) throw std::runtime_error("slot payload unavailable");
      pj.pk.visit([&](const auto& pk) {
        using C = typename std::remove_cvref_t<decltype(pk)>::curve;
        const auto buf = job::slot_buffers<C>(*payload, pk);
        std::optional<groth16::basic_blinding<C>> rs;
        if (pj.blinding) rs = groth16::basic_blinding<C>::parse(*pj.blinding);
        const basic_prove_input<C> in{pk, pj.key_id, buf.a, buf.b, buf.c, buf.z, rs};
        auto out = backend_->prove(in);
        std::vector<ff::fr<C>> pub(in.z.begin() + 1, in.z.begin() + 1 + pk.n_public);
        const auto verify_start = std::chrono::steady_clock::now();
        if (!groth16::verify<C>(pk.vk(), pub, out.proof))
          throw std::runtime_error("the witness does not satisfy the circuit: the proof does not verify");
        d.verify = std::chrono::duration<double>(std::chrono::steady_clock::now() - verify_start).count();
        d.result = job::encode_result<C>({out.proof, std::move(pub)});
        d.timings = out.timings;
        d.gpu = out.gpu;
        d.stage = out.stage;
        d.streamed = out.streamed;
      });
      shm::failpoint("server.proved");  // crash tests: die with the proof computed but not stored
    } catch (const device_fault& e) {
      d.error = e.what();
      d.device_fault = e.sticky();
    } catch (const std::exception& e) {
      d.error = e.what();
    }
    d.end_ns = shm::now_ns();
    boost::asio::post(io_, [this, d = std::move(d)]() mutable { on_proof_done(std::move(d)); });
  }
}

// A device error is not the job's fault: the slot goes back to FILLED (its
// bytes are intact) and is proven again, up to device_attempts times. A
// sticky one leaves this process's context unusable: the server exits with
// exit_device_lost and the next server proves the FILLED slot, no new synthesis.
void server::on_device_fault(const proof_done& d) {
  const auto& w = d.what;
  if (*d.device_fault) {
    const bool filled = static_cast<bool>(slots_->reclaim_proving(w.slot, w.gen, lease_->index()));  // PROVING → FILLED
    spdlog::critical("job {} partition {}: {}; the device is lost: slot {} is {} and the server exits with code {} "
                     "so that it is restarted",
                     w.job.index, w.partition, util::printable(d.error), w.slot, filled ? "FILLED again" : "left to reclamation",
                     exit_device_lost);
    exit_code_ = exit_device_lost;
    stopping_ = true;
    io_.stop();
    return;
  }
  const auto key = std::pair(w.slot, w.gen);
  const unsigned failures = ++device_failures_[key];
  if (failures < std::max(1u, opt_.device_attempts) && slots_->reclaim_proving(w.slot, w.gen, lease_->index())) {
    spdlog::warn("job {} partition {}: {} (device attempt {} of {}); slot {} is FILLED again and will be retried",
                 w.job.index, w.partition, util::printable(d.error), failures, opt_.device_attempts, w.slot);
    return;
  }
  device_failures_.erase(key);
  ++counters_.failed;
  spdlog::warn("job {} partition {} failed after {} device error(s): {}", w.job.index, w.partition, failures,
               util::printable(d.error));
  (void)jobs_->fail(w.job, w.partition, d.error);
  (void)slots_->abandon(w.slot, w.gen, lease_->index());
}

void server::on_proof_done(proof_done d) {
  --proving_;
  const auto& w = d.what;
  if (d.device_fault) {
    on_device_fault(d);
    if (exit_code_) return;
  } else {
    on_proof_result(d);
  }
  notify_waiters(w.job);
  if (stopping_) {
    if (!proving_) io_.stop();
    return;
  }
  dispatch();
  drain();
}

// A proof (or a proving error that is not the device's) for its slot: stored
// and the slot released, or the job failed and the slot abandoned.
void server::on_proof_result(const proof_done& d) {
  const auto& w = d.what;
  device_failures_.erase(std::pair(w.slot, w.gen));
  if (auto e = slots_->entry(w.slot)) {
    const std::uint64_t synth_end = (*e)->filled_ns, synth_start = synth_end - std::min(synth_end, (*e)->synth_ns);
    jobs_->note_times(w.job, w.partition, synth_start, synth_end, d.start_ns, d.end_ns);
    if (d.error.empty()) observe_proof(d, synth_start, synth_end);
  }
  if (d.error.empty()) {
    if (auto r = jobs_->store_result(w.job, w.partition, w.gen, d.result, partition_timings_of(d.timings, d.verify, d.gpu));
        !r) {
      spdlog::warn("job {} partition {}: storing the proof: {}", w.job.index, w.partition, to_string(r.error()));
      // A result that can never be stored fails the job rather than leaving it running forever.
      if (r.error() == shm::error::too_large)
        (void)jobs_->fail(w.job, w.partition, "the proof and public signals (" + std::to_string(d.result.size()) +
                                                  " bytes) do not fit the job table's " +
                                                  std::to_string(shm::result_bytes) + " bytes");
    }
    shm::failpoint("server.proof.stored");
    ++counters_.proofs;
    spdlog::info("proven job={} partition={} backend={} gpu={} streamed={} {}", w.job.index, w.partition,
                 backend_->name(), d.gpu, d.streamed, timings_log_fields(d.timings, d.verify, d.stage));
    (void)slots_->release(w.slot, w.gen, lease_->index());
  } else {
    ++counters_.failed;
    spdlog::warn("job {} partition {} failed: {}", w.job.index, w.partition, util::printable(d.error));
    (void)jobs_->fail(w.job, w.partition, d.error);
    (void)slots_->abandon(w.slot, w.gen, lease_->index());
  }
}

}  // namespace cuzk::server
