#include "workers/workers.hpp"

#include <signal.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <tuple>
#include <vector>

#include "shm/failpoint.hpp"
#include "shm/lease.hpp"
#include "shm/reclaim.hpp"
#include "util/utf8.hpp"

namespace cuzk::server {

proto::assign workers::assign_message(std::uint64_t slot, std::uint64_t gen, shm::job_ref j, std::uint32_t partition,
                                      const shm::job_record& rec) const {
  return proto::assign{slot,
                       gen,
                       j.index,
                       j.generation,
                       partition,
                       std::string(shm::field_text(rec.key_id)),
                       std::string(rec.spec, std::min<std::size_t>(rec.spec_len, shm::spec_bytes))};
}

// A worker message speaks for a lease only when that lease is held, by a
// worker, by the very process that sent it (SO_PEERCRED pid): nobody else
// (a client, the server's own lease, a worker naming another's lease) can
// claim slots or receive job inputs.
bool workers::lease_of_sender(const peer& p, std::uint32_t lease) const {
  if (lease >= c_.region.header().lease_capacity || !shm::is_alive(c_.region, lease)) return false;
  const auto* e = shm::lease_entries(c_.region) + lease;
  return e->role == static_cast<std::uint32_t>(shm::role::worker) && e->pid == p.cred.pid;
}

std::optional<std::uint32_t> workers::sender_lease(const peer& p) const {
  for (const auto& [lease, w] : workers_)
    if (w.identity == p.identity && lease_of_sender(p, lease)) return lease;
  return std::nullopt;
}

void workers::ready(const peer& p, const proto::ready& r) {
  if (!lease_of_sender(p, r.lease)) {
    ++c_.counters.refused;
    c_.out.reply_error(p.to(), 0, proto::error_code::bad_request,
                       "lease " + std::to_string(r.lease) + " is not a worker lease held by your process");
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
  if (is_new)
    spdlog::info("worker {} (lease {}, pid {}, uid {}) ready", util::printable(r.name), r.lease, p.cred.pid,
                 p.cred.uid);
  // A slot still ASSIGNED to an idle worker: its Assign was lost (a server
  // restart between the region write and the send). Send it again.
  for (std::uint64_t s = 0; s < c_.slots.size(); ++s) {
    auto word = c_.slots.word(s);
    if (!word || word->state != shm::slot_state::assigned || word->owner != r.lease) continue;
    auto e = c_.slots.entry(s);
    shm::job_ref j = shm::job_of(**e);
    auto rec = c_.jobs.get(j);
    if (!rec) continue;
    if (c_.out.send(p.to(), proto::message{0, assign_message(s, word->generation, j, (*e)->partition, **rec)})) {
      w.busy = std::pair(s, word->generation);
      break;
    }
  }
  h_.dispatch();
}

void workers::filled(const peer& p, const proto::filled& f) {
  const auto lease = sender_lease(p);
  if (!lease) return (void)++c_.counters.refused;
  auto word = c_.slots.word(f.slot);
  if (!word || word->generation != f.generation) {
    ++c_.counters.stale;
    return;
  }
  free_busy(f.slot, f.generation);
  shm::failpoint("server.filled");
  h_.dispatch();
}

void workers::synth_failed(const peer& p, const proto::synth_failed& f) {
  const auto sender = sender_lease(p);
  if (!sender) return (void)++c_.counters.refused;
  auto e0 = c_.slots.entry(f.slot);
  // Only the worker that held the slot can report its failure (the slot is FREE again, its job FAILED).
  if (!e0 || !workers_.count(*sender) || !workers_[*sender].busy || workers_[*sender].busy->first != f.slot ||
      workers_[*sender].busy->second != f.generation)
    return (void)++c_.counters.stale;
  free_busy(f.slot, f.generation);
  if (auto e = c_.slots.entry(f.slot)) {
    shm::job_ref j = shm::job_of(**e);
    spdlog::warn("job {} partition {}: {}", j.index, (*e)->partition, util::printable(f.error));
    h_.failed(j);
  }
  h_.dispatch();
}

void workers::heartbeat(const peer& p, const proto::heartbeat& h) {
  if (!lease_of_sender(p, h.lease)) return (void)++c_.counters.refused;
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

void workers::bye(const peer& p, const proto::bye& b) {
  if (!lease_of_sender(p, b.lease)) return (void)++c_.counters.refused;
  workers_.erase(b.lease);
}

// A worker that holds a slot but has not heartbeaten for hung_timeout is
// hung (stopped, deadlocked, swapping): it cannot be reclaimed while alive,
// since it might still write into the slot, so it is killed (after checking
// that the pid still is the process that took the lease) and reclaimed as
// dead on the next tick; systemd restarts it.
void workers::kill_hung() {
  const auto timeout = static_cast<std::uint64_t>(c_.opt.hung_timeout.count()) * 1000000ULL;
  for (std::uint64_t s = 0; s < c_.slots.size(); ++s) {
    auto w = c_.slots.word(s);
    if (!w || w->state != shm::slot_state::assigned || !shm::is_hung(c_.region, w->owner, timeout)) continue;
    const auto* e = shm::lease_entries(c_.region) + w->owner;
    if (e->pid <= 0 || shm::process_start_time(e->pid) != e->start_time) continue;
    spdlog::warn("worker {} (lease {}, pid {}) holds slot {} and has not heartbeaten for {} ms: killing it",
                 util::printable(shm::field_text(e->name)), w->owner, e->pid, s, c_.opt.hung_timeout.count());
    ::kill(e->pid, SIGKILL);
  }
}

void workers::reap_dead() {
  kill_hung();
  std::erase_if(workers_, [&](const auto& kv) { return !shm::is_alive(c_.region, kv.first); });
  c_.counters.preemptions.keep_if([&](shm::job_ref j) {
    auto rec = c_.jobs.get(j);
    return rec && shm::job_word_state(**rec) == shm::job_state::active;
  });
  bool reclaimed = false;
  std::vector<shm::job_ref> refused;
  for (std::uint64_t s = 0; s < c_.slots.size(); ++s) {
    auto w = c_.slots.word(s);
    if (!w || w->state != shm::slot_state::assigned || shm::is_alive(c_.region, w->owner)) continue;
    auto e = c_.slots.entry(s);
    const shm::job_ref held = e ? shm::job_of(**e) : shm::job_ref{};
    const std::uint32_t held_partition = e ? (*e)->partition : 0;
    const auto* le = shm::lease_entries(c_.region) + w->owner;
    const std::string last = "worker " + std::string(shm::field_text(le->name)) + " (pid " + std::to_string(le->pid) +
                             ") died while synthesizing it: killed, out of memory?";
    auto rep = shm::reclaim(c_.region, shm::reclaim_options{w->owner, false});
    if (rep && rep->assigned_freed) {
      spdlog::warn("worker lease {} died: {} slot(s) freed, {} partition(s) requeued", w->owner, rep->assigned_freed,
                   rep->partitions_requeued);
      reclaimed = true;
    }
    if (e && c_.queue.refuse_poison(held, held_partition, c_.opt.max_synth_crashes, last)) refused.push_back(held);
  }
  for (auto j : refused) h_.failed(j);
  if (reclaimed) spdlog::info("requeued the dead worker's partitions");
  c_.queue.sync();
}

void workers::assign() {
  // Idle workers beyond the reserve take any partition; the reserve only critical ones.
  const auto idle = [](const auto& kv) { return !kv.second.busy && !kv.second.identity.empty(); };
  auto n_idle = static_cast<std::size_t>(std::count_if(workers_.begin(), workers_.end(), idle));
  const std::size_t reserve =
      std::min<std::size_t>(c_.opt.critical.reserve_workers, workers_.empty() ? 0 : workers_.size() - 1);
  for (auto& [lease, w] : workers_) {
    if (w.busy || w.identity.empty()) continue;
    std::optional<std::uint64_t> slot;
    auto q = c_.queue.take([&](const queued_partition& qp, const shm::job_record& rec) {
      if (shm::rank(qp.prio) >= 0 && n_idle <= reserve) return false;
      auto cls = h_.class_for(rec);
      if (!cls) return false;
      if (w.capacity && c_.region.header().classes[*cls].domain > w.capacity) return false;
      slot = c_.slots.find_free(*cls);
      return slot.has_value();
    });
    if (!q) break;  // nothing fits any free slot now
    auto rec = c_.jobs.get(q->job);
    auto word = c_.slots.word(*slot);
    if (!rec || !word) continue;
    if (!c_.queue.claim(*q, static_cast<std::uint32_t>(*slot))) continue;
    auto a = c_.slots.assign(*slot, word->generation, lease, q->job.index, q->job.generation, q->partition);
    if (!a) {
      c_.queue.give_back(*q);
      continue;
    }
    if (!c_.out.send({w.identity, channel::workers},
                     proto::message{0, assign_message(*slot, word->generation, q->job, q->partition, **rec)})) {
      // the worker went away: hand the slot back
      (void)c_.slots.abandon(*slot, word->generation, lease);
      c_.queue.give_back(*q);
      w.identity.clear();
      --n_idle;
      continue;
    }
    shm::failpoint("server.assign.sent");
    w.busy = std::pair(*slot, word->generation);
    --n_idle;
  }
  preempt();
}

std::vector<std::uint32_t> workers::waiting_critical() {
  std::vector<std::uint32_t> classes;
  if (!c_.queue.count(shm::priority::critical)) return classes;
  (void)c_.queue.take([&](const queued_partition& q, const shm::job_record& rec) {
    if (shm::rank(q.prio) < 0)
      if (auto cls = h_.class_for(rec)) classes.push_back(*cls);
    return false;  // a look, not a take
  });
  return classes;
}

bool workers::abort_one(std::uint32_t cls) {
  const auto& classes = c_.region.header().classes;
  std::optional<std::tuple<int, std::uint64_t, std::uint32_t>> victim;  // (rank, seq, lease): the largest goes
  for (const auto& [lease, w] : workers_) {
    if (!w.busy || w.identity.empty() || aborting_.count(w.busy->first)) continue;
    const auto [slot, gen] = *w.busy;
    const auto vc = c_.slots.class_of(slot);
    if (vc >= shm::max_slot_classes || classes[vc].domain < classes[cls].domain ||
        classes[vc].witness < classes[cls].witness)
      continue;
    auto word = c_.slots.word(slot);
    auto e = c_.slots.entry(slot);
    if (!word || !e || word->state != shm::slot_state::assigned || word->generation != gen) continue;
    auto rec = c_.jobs.get(shm::job_of(**e));
    if (!rec || shm::rank((*rec)->priority) < 0) continue;
    if (!c_.counters.preemptions.preemptible(shm::job_of(**e), c_.opt.critical.max_preemptions)) continue;
    const std::tuple<int, std::uint64_t, std::uint32_t> k{shm::rank((*rec)->priority), (*rec)->seq, lease};
    if (!victim || k > *victim) victim = k;
  }
  if (!victim) return false;
  const auto& w = workers_.at(std::get<2>(*victim));
  const auto [slot, gen] = *w.busy;
  if (!c_.out.send({w.identity, channel::workers}, proto::message{0, proto::abort_synthesis{slot, gen}})) return false;
  aborting_[slot] = gen;
  const shm::job_ref j = shm::job_of(**c_.slots.entry(slot));
  spdlog::info(
      "a critical partition waits: asking worker {} to abort its synthesis of slot {} (job {}: preemption {} of "
      "at most {})",
      util::printable(w.name), slot, j.index, c_.counters.preemptions.note(j), c_.opt.critical.max_preemptions);
  return true;
}

// One abort per critical partition that found no worker or slot, beyond the aborts already asked for.
void workers::preempt() {
  std::erase_if(aborting_, [&](const auto& kv) {
    auto w = c_.slots.word(kv.first);
    return !w || w->state != shm::slot_state::assigned || w->generation != kv.second;
  });
  const auto waiting = waiting_critical();
  for (std::size_t i = aborting_.size(); i < waiting.size(); ++i)
    if (!abort_one(waiting[i])) return;
}

void workers::aborted(const peer& p, const proto::synth_aborted& a) {
  const auto lease = sender_lease(p);
  if (!lease) return (void)++c_.counters.refused;
  auto word = c_.slots.word(a.slot);
  auto e = c_.slots.entry(a.slot);
  if (!word || !e || word->state != shm::slot_state::assigned || word->generation != a.generation ||
      word->owner != *lease)
    return (void)++c_.counters.stale;
  const shm::job_ref j = shm::job_of(**e);
  const std::uint32_t partition = (*e)->partition;
  (void)c_.jobs.unslot(j, partition);  // SLOTTED → QUEUED first: a crash in between is reconciled like any other
  (void)c_.slots.abandon(a.slot, a.generation, *lease);
  free_busy(a.slot, a.generation);
  aborting_.erase(a.slot);
  ++c_.counters.aborted;
  spdlog::info("slot {}: job {} partition {}: synthesis aborted for a critical job; the partition waits again", a.slot,
               j.index, partition);
  c_.queue.sync();
  h_.dispatch();
}

void workers::free_busy(std::uint64_t slot, std::uint64_t gen) {
  for (auto& [lease, w] : workers_)
    if (w.busy && w.busy->first == slot && w.busy->second == gen) w.busy.reset();
}

void workers::describe(proto::status_reply& st) const {
  const auto now = shm::boot_ns();
  const auto hung_ns = static_cast<std::uint64_t>(c_.opt.hung_timeout.count()) * 1000000ULL;
  for (const auto& [lease, w] : workers_) {
    const auto* e = shm::lease_entries(c_.region) + lease;
    const auto hb = e->heartbeat_ns.load(std::memory_order_relaxed);
    proto::worker_status ws{lease, w.name, w.pid, w.busy ? proto::worker_state::busy : proto::worker_state::idle,
                            hb && now > hb ? (now - hb) / 1000000 : 0};
    if (shm::is_hung(c_.region, lease, hung_ns)) ws.state = proto::worker_state::hung;
    st.workers.push_back(ws);
  }
}

}  // namespace cuzk::server
