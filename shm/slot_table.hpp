// Slot transitions (DESIGN §3). Each is one CAS on the slot's word that
// checks state, owner and the expected generation; anything else is refused
// (stale_generation when the generation moved on, wrong_state, wrong_owner).
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "shm/error.hpp"
#include "shm/layout.hpp"
#include "shm/region.hpp"

namespace cuzk::shm {

/* One slot's payload: a, b, c (domain elements of 32 bytes each) and z. */
struct slot_payload {
  std::span<std::uint8_t> a, b, c, z;
  std::uint64_t domain = 0, witness = 0;  // capacities in elements
};

struct fill_info {
  std::uint64_t n_constraints = 0, domain = 0, n_witness = 0;
  std::uint64_t synth_ns = 0;
  bool checksum = false;         // compute XXH3-64 over the written bytes
  std::uint8_t curve = 1;        // curves::curve_id of the elements written
  std::uint64_t witness_ns = 0;  // of synth_ns, an installed circuit's witness generator's
};

class slot_table {
 public:
  explicit slot_table(const region& r) noexcept : r_(&r) {}

  std::uint64_t size() const noexcept;
  result<slot_word> word(std::uint64_t slot) const noexcept;  // acquire load
  result<const slot_entry*> entry(std::uint64_t slot) const noexcept;
  result<slot_payload> payload(std::uint64_t slot) const noexcept;
  /* The class index of a slot, and the smallest class whose domain and witness
     fit (nullopt: none does). */
  std::uint32_t class_of(std::uint64_t slot) const noexcept;
  std::optional<std::uint32_t> class_for(std::uint64_t domain, std::uint64_t witness) const noexcept;
  /* A FREE slot of class `cls` or any larger one (smallest first). */
  std::optional<std::uint64_t> find_free(std::uint32_t cls) const noexcept;

  /* server: FREE(gen) → ASSIGNED(gen, worker). Writes the binding first. */
  result<slot_word> assign(std::uint64_t slot, std::uint64_t gen, std::uint32_t worker, std::uint64_t job,
                           std::uint64_t job_gen, std::uint32_t partition) noexcept;
  /* worker: ASSIGNED(gen, worker) → FILLED(gen). Sizes (and checksum) are
     stored before the word, which is published with release ordering. */
  result<slot_word> fill(std::uint64_t slot, std::uint64_t gen, std::uint32_t worker, const fill_info& info) noexcept;
  /* server: FILLED(gen) → PROVING(gen, server). */
  result<slot_word> start_proving(std::uint64_t slot, std::uint64_t gen, std::uint32_t server) noexcept;
  /* server, after the proof is stored in the job table: PROVING(gen) → FREE(gen + 1). */
  result<slot_word> release(std::uint64_t slot, std::uint64_t gen, std::uint32_t server) noexcept;
  /* worker/server: a job that cannot be synthesized or proven (bad witness,
     unsatisfied constraint) gives its slot back: ASSIGNED(gen, worker) or
     PROVING(gen, server) → FREE(gen + 1), after the job table records the error. */
  result<slot_word> abandon(std::uint64_t slot, std::uint64_t gen, std::uint32_t owner) noexcept;

  /* reclamation's reconcile step: a FILLED slot whose partition is already
     DONE, or whose job is gone or finished: FILLED(gen) → FREE(gen + 1). */
  result<slot_word> discard(std::uint64_t slot, std::uint64_t gen) noexcept;

  /* Reclamation steps (the cleaner lock held, owner dead):
     ASSIGNED(gen, owner) → FREE(gen + 1);  PROVING(gen, owner) → FILLED(gen). */
  result<slot_word> reclaim_assigned(std::uint64_t slot, std::uint64_t gen, std::uint32_t dead_owner) noexcept;
  result<slot_word> reclaim_proving(std::uint64_t slot, std::uint64_t gen, std::uint32_t dead_owner) noexcept;

  /* Recomputes a FILLED slot's checksum (error when it was stored and differs). */
  result<void> verify_checksum(std::uint64_t slot) const noexcept;

 private:
  const region* r_;
};

}  // namespace cuzk::shm
