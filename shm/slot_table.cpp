#include "shm/slot_table.hpp"

#define XXH_STATIC_LINKING_ONLY  // XXH3_state_t on the stack
#include <xxhash.h>

#include "shm/failpoint.hpp"
#include "shm/lease.hpp"

namespace cuzk::shm {
namespace {

constexpr std::uint64_t element_bytes = 32;

slot_entry* entries(const region& r) noexcept { return r.at<slot_entry>(r.header().slot_offset); }

/* The refusal for a word that is not `from`(gen, owner): a moved-on
   generation first (the message is stale), then the state, then the owner. */
error refusal(slot_word w, slot_state from, std::uint64_t gen, std::uint32_t owner, bool check_owner) noexcept {
  if (w.generation != gen) return error::stale_generation;
  if (w.state != from) return error::wrong_state;
  if (check_owner && w.owner != owner) return error::wrong_owner;
  return error::wrong_state;
}

bool matches(slot_word w, slot_state from, std::uint64_t gen, std::uint32_t owner, bool check_owner) noexcept {
  return w.generation == gen && w.state == from && (!check_owner || w.owner == owner);
}

/* One CAS from `from`(gen[, owner]) to `to`; retried only when the word
   changed underneath without leaving the from-state (it cannot today, but a
   spurious compare_exchange_weak failure must not become an error). */
result<slot_word> transition(slot_entry& e, slot_state from, std::uint64_t gen, std::uint32_t owner, bool check_owner,
                             slot_word to) noexcept {
  std::uint64_t cur = e.word.load(std::memory_order_acquire);
  for (;;) {
    slot_word w = slot_word::unpack(cur);
    if (!matches(w, from, gen, owner, check_owner)) return unexpected(refusal(w, from, gen, owner, check_owner));
    if (e.word.compare_exchange_weak(cur, to.pack(), std::memory_order_acq_rel, std::memory_order_acquire)) return to;
  }
}

std::uint64_t payload_hash(const slot_payload& p, std::uint64_t n, std::uint64_t nw) noexcept {
  alignas(64) XXH3_state_t st;
  XXH3_64bits_reset(&st);
  XXH3_64bits_update(&st, p.a.data(), n * element_bytes);
  XXH3_64bits_update(&st, p.b.data(), n * element_bytes);
  XXH3_64bits_update(&st, p.c.data(), n * element_bytes);
  XXH3_64bits_update(&st, p.z.data(), nw * element_bytes);
  std::uint64_t h = XXH3_64bits_digest(&st);
  return h ? h : 1;  // 0 means "no checksum"
}

}  // namespace

std::uint64_t slot_table::size() const noexcept { return r_->header().n_slots; }

result<slot_word> slot_table::word(std::uint64_t slot) const noexcept {
  if (slot >= size()) return unexpected(error::no_such_slot);
  return slot_word::unpack(entries(*r_)[slot].word.load(std::memory_order_acquire));
}

result<const slot_entry*> slot_table::entry(std::uint64_t slot) const noexcept {
  if (slot >= size()) return unexpected(error::no_such_slot);
  return static_cast<const slot_entry*>(&entries(*r_)[slot]);
}

std::uint32_t slot_table::class_of(std::uint64_t slot) const noexcept {
  const region_header& h = r_->header();
  for (std::uint32_t c = 0; c < h.n_classes; ++c)
    if (slot < h.classes[c].first_slot + h.classes[c].count) return c;
  return h.n_classes;
}

result<slot_payload> slot_table::payload(std::uint64_t slot) const noexcept {
  if (slot >= size()) return unexpected(error::no_such_slot);
  const slot_class& k = r_->header().classes[class_of(slot)];
  std::uint8_t* p = r_->base() + k.payload_offset + (slot - k.first_slot) * k.slot_bytes;
  const std::uint64_t v = k.domain * element_bytes;
  return slot_payload{{p, v}, {p + v, v}, {p + 2 * v, v}, {p + 3 * v, k.witness * element_bytes}, k.domain, k.witness};
}

std::optional<std::uint32_t> slot_table::class_for(std::uint64_t domain, std::uint64_t witness) const noexcept {
  const region_header& h = r_->header();
  std::optional<std::uint32_t> best;
  for (std::uint32_t c = 0; c < h.n_classes; ++c)
    if (h.classes[c].domain >= domain && h.classes[c].witness >= witness &&
        (!best || h.classes[c].slot_bytes < h.classes[*best].slot_bytes))
      best = c;
  return best;
}

std::optional<std::uint64_t> slot_table::find_free(std::uint32_t cls) const noexcept {
  const region_header& h = r_->header();
  if (cls >= h.n_classes) return std::nullopt;
  const slot_class& want = h.classes[cls];
  // Classes are sorted by (domain, witness): the fitting ones come at cls and after.
  for (std::uint32_t c = cls; c < h.n_classes; ++c) {
    const slot_class& k = h.classes[c];
    if (k.domain < want.domain || k.witness < want.witness) continue;
    for (std::uint64_t s = k.first_slot; s < k.first_slot + k.count; ++s)
      if (slot_word::unpack(entries(*r_)[s].word.load(std::memory_order_acquire)).state == slot_state::free) return s;
  }
  return std::nullopt;
}

result<slot_word> slot_table::assign(std::uint64_t slot, std::uint64_t gen, std::uint32_t worker, std::uint64_t job,
                                     std::uint64_t job_gen, std::uint32_t partition) noexcept {
  if (slot >= size()) return unexpected(error::no_such_slot);
  if (worker >= r_->header().lease_capacity) return unexpected(error::wrong_owner);
  slot_entry& e = entries(*r_)[slot];
  // The binding is written while the slot is FREE, before the CAS publishes
  // it: only the server (one per pool) leaves FREE, so no one else writes here.
  slot_word w = slot_word::unpack(e.word.load(std::memory_order_acquire));
  if (!matches(w, slot_state::free, gen, 0, false)) return unexpected(refusal(w, slot_state::free, gen, 0, false));
  e.job = job;
  e.job_generation = job_gen;
  e.partition = partition;
  e.n_constraints = e.domain = e.n_witness = e.checksum = 0;
  e.assigned_ns = now_ns();
  e.filled_ns = e.proving_ns = e.synth_ns = e.witness_ns = e.curve = 0;
  failpoint("slot.assign.binding");
  auto r = transition(e, slot_state::free, gen, 0, false, {slot_state::assigned, worker, gen});
  if (r) failpoint("slot.assign.cas");
  return r;
}

result<slot_word> slot_table::fill(std::uint64_t slot, std::uint64_t gen, std::uint32_t worker,
                                   const fill_info& info) noexcept {
  if (slot >= size()) return unexpected(error::no_such_slot);
  slot_entry& e = entries(*r_)[slot];
  slot_word w = slot_word::unpack(e.word.load(std::memory_order_acquire));
  if (!matches(w, slot_state::assigned, gen, worker, true))
    return unexpected(refusal(w, slot_state::assigned, gen, worker, true));
  auto p = payload(slot);
  std::uint64_t domain = info.domain ? info.domain : p->domain;
  if (info.n_constraints > domain || domain > p->domain || (domain & (domain - 1)) != 0 || info.n_witness > p->witness)
    return unexpected(error::too_large);
  e.n_constraints = info.n_constraints;
  e.domain = domain;
  e.n_witness = info.n_witness;
  e.synth_ns = info.synth_ns;
  e.witness_ns = info.witness_ns;
  e.curve = info.curve;
  e.checksum = info.checksum ? payload_hash(*p, info.n_constraints, info.n_witness) : 0;
  e.filled_ns = now_ns();
  failpoint("slot.fill.sizes");
  // acq_rel CAS: every payload store above (and the worker's, before the call)
  // happens-before any acquire load that sees FILLED.
  auto r = transition(e, slot_state::assigned, gen, worker, true, {slot_state::filled, no_lease, gen});
  if (r) failpoint("slot.fill.cas");
  return r;
}

result<slot_word> slot_table::start_proving(std::uint64_t slot, std::uint64_t gen, std::uint32_t server) noexcept {
  if (slot >= size()) return unexpected(error::no_such_slot);
  if (server >= r_->header().lease_capacity) return unexpected(error::wrong_owner);
  slot_entry& e = entries(*r_)[slot];
  auto r = transition(e, slot_state::filled, gen, 0, false, {slot_state::proving, server, gen});
  if (r) {
    e.proving_ns = now_ns();
    failpoint("slot.prove.cas");
  }
  return r;
}

result<slot_word> slot_table::release(std::uint64_t slot, std::uint64_t gen, std::uint32_t server) noexcept {
  if (slot >= size()) return unexpected(error::no_such_slot);
  auto r =
      transition(entries(*r_)[slot], slot_state::proving, gen, server, true, {slot_state::free, no_lease, gen + 1});
  if (r) failpoint("slot.release.cas");
  return r;
}

result<slot_word> slot_table::abandon(std::uint64_t slot, std::uint64_t gen, std::uint32_t owner) noexcept {
  if (slot >= size()) return unexpected(error::no_such_slot);
  slot_entry& e = entries(*r_)[slot];
  slot_word w = slot_word::unpack(e.word.load(std::memory_order_acquire));
  slot_state from = w.state == slot_state::proving ? slot_state::proving : slot_state::assigned;
  auto r = transition(e, from, gen, owner, true, {slot_state::free, no_lease, gen + 1});
  if (r) failpoint("slot.abandon.cas");
  return r;
}

result<slot_word> slot_table::discard(std::uint64_t slot, std::uint64_t gen) noexcept {
  if (slot >= size()) return unexpected(error::no_such_slot);
  auto r = transition(entries(*r_)[slot], slot_state::filled, gen, 0, false, {slot_state::free, no_lease, gen + 1});
  if (r) failpoint("slot.discard.cas");
  return r;
}

result<slot_word> slot_table::reclaim_assigned(std::uint64_t slot, std::uint64_t gen,
                                               std::uint32_t dead_owner) noexcept {
  if (slot >= size()) return unexpected(error::no_such_slot);
  auto r = transition(entries(*r_)[slot], slot_state::assigned, gen, dead_owner, true,
                      {slot_state::free, no_lease, gen + 1});
  if (r) failpoint("slot.reclaim_assigned.cas");
  return r;
}

result<slot_word> slot_table::reclaim_proving(std::uint64_t slot, std::uint64_t gen,
                                              std::uint32_t dead_owner) noexcept {
  if (slot >= size()) return unexpected(error::no_such_slot);
  auto r =
      transition(entries(*r_)[slot], slot_state::proving, gen, dead_owner, true, {slot_state::filled, no_lease, gen});
  if (r) failpoint("slot.reclaim_proving.cas");
  return r;
}

result<void> slot_table::verify_checksum(std::uint64_t slot) const noexcept {
  if (slot >= size()) return unexpected(error::no_such_slot);
  const slot_entry& e = entries(*r_)[slot];
  slot_word w = slot_word::unpack(e.word.load(std::memory_order_acquire));
  if (w.state != slot_state::filled && w.state != slot_state::proving) return unexpected(error::wrong_state);
  if (e.checksum == 0) return {};
  auto p = payload(slot);
  if (e.n_constraints > p->domain || e.n_witness > p->witness) return unexpected(error::checksum_mismatch);
  if (payload_hash(*p, e.n_constraints, e.n_witness) != e.checksum) return unexpected(error::checksum_mismatch);
  return {};
}

}  // namespace cuzk::shm
