#include "shm/reclaim.hpp"

#include "shm/failpoint.hpp"
#include "shm/job_table.hpp"
#include "shm/lease.hpp"
#include "shm/lock_file.hpp"
#include "shm/slot_table.hpp"

namespace cuzk::shm {
namespace {

/* The cleaner lock on its own open file description, so that two cleaners
   of the same process (threads) exclude each other too. */
struct cleaner_lock {
  int fd = -1;
  explicit cleaner_lock(const region& r) noexcept : fd(detail::open_lock_file(r.lock_path())) {
    if (fd >= 0 && !detail::lock_wait(fd, lock_byte_cleaner)) detail::close_fd(fd);
  }
  ~cleaner_lock() { detail::close_fd(fd); }
  explicit operator bool() const noexcept { return fd >= 0; }
};

struct pass {
  pass(const region& reg, std::optional<std::uint32_t> o, std::optional<std::uint32_t> h) noexcept
      : r(reg), only(o), held(h), slots(reg), jobs(reg) {}
  const region& r;
  std::optional<std::uint32_t> only;  // owner filter
  std::optional<std::uint32_t> held;  // an entry the caller holds, known dead holder
  slot_table slots;
  job_table jobs;
  reclaim_report rep;

  bool dead(std::uint32_t owner) const noexcept {
    if (owner >= r.header().lease_capacity) return false;
    if (held && *held == owner) return true;
    return !is_alive(r, owner);
  }

  void leases() noexcept {
    lease_entry* e = lease_entries(r);
    for (std::uint32_t i = 0; i < r.header().lease_capacity; ++i) {
      if (only && *only != i) continue;
      std::uint64_t w = e[i].word.load(std::memory_order_acquire);
      const auto lw = lease_word::unpack(w);
      if (!lw.active || !dead(i)) continue;
      if (e[i].word.compare_exchange_strong(w, lease_word{false, lw.incarnation}.pack(), std::memory_order_acq_rel)) {
        ++rep.leases_cleared;
        failpoint("reclaim.lease.cas");
      }
    }
  }

  void dead_owners() noexcept {
    for (std::uint64_t s = 0; s < slots.size(); ++s) {
      slot_word w = *slots.word(s);
      if (w.state != slot_state::assigned && w.state != slot_state::proving) continue;
      if (only && *only != w.owner) continue;
      if (!dead(w.owner)) continue;
      if (w.state == slot_state::proving) {
        if (slots.reclaim_proving(s, w.generation, w.owner)) ++rep.proving_refilled;
        continue;
      }
      // The job table first, the slot last: a reclaimer that dies in between
      // leaves the slot ASSIGNED to a dead owner, so the next pass repeats
      // this (a FREE slot would leave its partition SLOTTED, or its job
      // ACTIVE, with nothing to finish them until a server restart).
      const slot_entry& e = **slots.entry(s);
      const job_ref j = job_of(e);
      std::uint32_t p = e.partition;
      if (auto pw = jobs.part(j, p); pw && pw->state == part_state::slotted && pw->slot == s && jobs.requeue(j, p))
        ++rep.partitions_requeued;
      else if (pw && (pw->state == part_state::done || pw->state == part_state::failed) && jobs.complete(j))
        ++rep.jobs_completed;  // its worker failed it and died before the job was
      if (slots.reclaim_assigned(s, w.generation, w.owner)) ++rep.assigned_freed;
    }
  }

  bool bound_to(std::uint64_t s, job_ref j, std::uint32_t p) const noexcept {
    auto w = slots.word(s);
    if (!w || w->state == slot_state::free) return false;
    const slot_entry& e = **slots.entry(s);
    return e.job == j.index && e.job_generation == j.generation && e.partition == p;
  }

  void reconcile() noexcept {
    rep.reconciled = true;
    // SLOTTED partitions whose slot does not hold them → QUEUED.
    for (std::uint64_t i = 0; i < jobs.capacity(); ++i) {
      const job_record* rec = r.at<job_record>(r.header().job_offset) + i;
      const job_word jw = job_word_of(*rec);
      if (jw.state != job_state::active) continue;
      job_ref j{i, jw.generation};
      for (std::uint32_t p = 0; p < rec->n_partitions && p < max_partitions; ++p) {
        auto pw = jobs.part(j, p);
        if (pw && pw->state == part_state::slotted && !bound_to(pw->slot, j, p) && jobs.requeue(j, p))
          ++rep.partitions_requeued;
      }
    }
    // Non-FREE slots bound to a QUEUED partition of an ACTIVE job → SLOTTED there;
    // FILLED slots that nobody needs → FREE.
    for (std::uint64_t s = 0; s < slots.size(); ++s) {
      slot_word w = *slots.word(s);
      if (w.state == slot_state::free) continue;
      const slot_entry& e = **slots.entry(s);
      const job_ref j = job_of(e);
      std::uint32_t p = e.partition;
      auto rec = jobs.get(j);
      bool active = rec && job_word_state(**rec) == job_state::active;
      auto pw = jobs.part(j, p);
      if (active && pw && pw->state == part_state::queued && jobs.mark_slotted(j, p, static_cast<std::uint32_t>(s))) {
        ++rep.partitions_slotted;
        continue;
      }
      if (w.state != slot_state::filled) continue;
      pw = jobs.part(j, p);
      bool wanted = active && pw && pw->state == part_state::slotted && pw->slot == s;
      if (!wanted && slots.discard(s, w.generation)) ++rep.filled_discarded;
    }
    // Jobs whose every partition finished; records a dead writer left RESERVED.
    for (std::uint64_t i = 0; i < jobs.capacity(); ++i) {
      const job_record* rec = r.at<job_record>(r.header().job_offset) + i;
      const job_word jw = job_word_of(*rec);
      if (jw.state == job_state::active && jobs.complete(job_ref{i, jw.generation})) ++rep.jobs_completed;
      if (jw.state == job_state::reserved && jobs.release_reserved(i)) ++rep.records_released;
    }
  }
};

result<reclaim_report> run(const region& r, std::optional<std::uint32_t> only, std::optional<std::uint32_t> held,
                           bool may_reconcile) noexcept {
  cleaner_lock lock(r);
  if (!lock) return unexpected(error::os_error);
  pass ps(r, only, held);
  ps.leases();
  ps.dead_owners();
  if (may_reconcile) ps.reconcile();
  return ps.rep;
}

}  // namespace

result<reclaim_report> reclaim(const region& r, std::optional<std::uint32_t> owner) noexcept {
  return reclaim(r, reclaim_options{owner, false});
}

result<reclaim_report> reclaim(const region& r, const reclaim_options& opt) noexcept {
  if (opt.owner && *opt.owner >= r.header().lease_capacity) return unexpected(error::wrong_owner);
  bool reconcile = !opt.owner && (opt.as_server || !server_alive(r));
  return run(r, opt.owner, std::nullopt, reconcile);
}

namespace detail {
result<reclaim_report> reclaim_entry(const region& r, std::uint32_t index, bool as_server) noexcept {
  if (as_server) return run(r, std::nullopt, index, true);
  return run(r, index, index, false);
}
}  // namespace detail

}  // namespace cuzk::shm
