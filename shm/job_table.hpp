// The job table: fixed-capacity records in the region, the truth a
// restarted server rebuilds its queues from. Record word: FREE → RESERVED
// (fields written) → ACTIVE → DONE | FAILED → FREE (evicted, oldest finished
// first, when the table is full). Partition words: QUEUED ⇄ SLOTTED(slot) →
// DONE | FAILED. Only the server (and reclamation, under the cleaner lock)
// writes records; workers only count syntheses.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "shm/error.hpp"
#include "shm/layout.hpp"
#include "shm/region.hpp"

namespace cuzk::shm {

struct job_request {
  std::string_view job_id;  // 1..63 bytes
  std::string_view client;
  std::string_view key_id;
  std::string_view spec;  // opaque to shm (the service stores its request JSON)
  priority prio = priority::normal;
  std::uint32_t partitions = 1;  // 1..max_partitions
  std::uint32_t owner_uid = 0;
  std::array<std::uint8_t, 16> digest{};
  /* A finished job is evicted (its record reused) only once fetched or when
     it finished longer ago than this. */
  std::uint64_t retention_ns = 24ULL * 3600 * 1000000000ULL;
  std::uint8_t curve = 1;  // the key's (curves::curve_id; shm stores it, the service reads it)
  job_origin origin = job_origin::client;
};

/* No phase measured, proven on the CPU. */
inline constexpr partition_timings cpu_timings{{}, -1, 0};

struct job_ref {
  std::uint64_t index = 0, generation = 0;
  friend bool operator==(const job_ref&, const job_ref&) = default;
};

/* The job a slot's entry was filled for. */
inline job_ref job_of(const slot_entry& e) noexcept { return {e.job, e.job_generation}; }

struct submit_outcome {
  job_ref job;
  bool created = false;   // false: the job id was already known (idempotent resubmit)
  bool conflict = false;  // the known job's request digest differs: nothing was written
};

struct part_word {
  part_state state;
  std::uint32_t slot;      // valid when slotted
  std::uint32_t attempts;  // times the partition was requeued after a crash
  static constexpr part_word unpack(std::uint64_t w) noexcept {
    return {static_cast<part_state>(w & 0xf), static_cast<std::uint32_t>((w >> 4) & 0xfffffff),
            static_cast<std::uint32_t>(w >> 32)};
  }
  constexpr std::uint64_t pack() const noexcept {
    return static_cast<std::uint64_t>(state) | (static_cast<std::uint64_t>(slot & 0xfffffff) << 4) |
           (static_cast<std::uint64_t>(attempts) << 32);
  }
};

/* A record's word (acquire), decoded; its state alone. */
inline job_word job_word_of(const job_record& r) noexcept {
  return job_word::unpack(r.word.load(std::memory_order_acquire));
}
inline job_state job_word_state(const job_record& r) noexcept { return job_word_of(r).state; }

/* A finished record that was fetched or outlived its retention: submit may reuse it. */
bool evictable(const job_record& r, std::uint64_t retention_ns) noexcept;

class job_table {
 public:
  explicit job_table(const region& r) noexcept : r_(&r) {}

  std::uint64_t capacity() const noexcept;
  /* Finds the live record with this (owner, job id), or reserves a free (or
     evicts the oldest finished record that was fetched or outlived its
     retention) record, writes the fields and publishes it ACTIVE with every
     partition QUEUED. job_table_full when nothing can be evicted. */
  result<submit_outcome> submit(const job_request& req) noexcept;
  /* The live record with this job id and owner (any owner: nullopt). */
  std::optional<job_ref> find(std::string_view job_id, std::optional<std::uint32_t> owner_uid) const noexcept;
  /* Its result was delivered: it may be evicted. */
  void mark_fetched(job_ref j) noexcept;
  /* The record when its generation still matches (no_such_job / stale_generation). */
  result<const job_record*> get(job_ref j) const noexcept;
  /* Every non-free record (for rebuilding queues and for status). */
  template <class F>
  void for_each(F&& f) const noexcept {
    for (std::uint64_t i = 0; i < capacity(); ++i) {
      const job_record* rec = record(i);
      const job_word w = job_word_of(*rec);
      if (w.state != job_state::free) f(job_ref{i, w.generation}, *rec);
    }
  }

  /* One partition's word (no_such_job when p is out of range). */
  result<part_word> part(job_ref j, std::uint32_t p) const noexcept;

  result<void> mark_slotted(job_ref j, std::uint32_t part, std::uint32_t slot) noexcept;  // QUEUED → SLOTTED
  result<void> requeue(job_ref j, std::uint32_t part) noexcept;  // SLOTTED → QUEUED, attempts + 1
  /* SLOTTED → QUEUED, attempts unchanged: its synthesis was aborted for a critical job, not lost to a crash. */
  result<void> unslot(job_ref j, std::uint32_t part) noexcept;
  void count_synthesis(job_ref j, std::uint32_t part) noexcept;  // syntheses + 1 (workers)
  void note_times(job_ref j, std::uint32_t part, std::uint64_t synth_start, std::uint64_t synth_end,
                  std::uint64_t prove_start, std::uint64_t prove_end) noexcept;
  /* SLOTTED → DONE with the result bytes and the proof's timings; a second
     store for the same slot generation is a no-op (dedup by (job, partition,
     generation)). The job becomes DONE when every partition is. */
  result<void> store_result(job_ref j, std::uint32_t part, std::uint64_t slot_gen, std::span<const std::uint8_t> bytes,
                            const partition_timings& timings = cpu_timings) noexcept;
  /* Partition and job → FAILED with the error text (truncated to fit). */
  result<void> fail(job_ref j, std::uint32_t part, std::string_view error) noexcept;
  /* The whole job FAILED with this error (through its first unfinished partition): a job that cannot go on
     (its key cannot be loaded, another node holds it). wrong_state when it is not ACTIVE. */
  result<void> fail_job(job_ref j, std::string_view error) noexcept;
  /* ACTIVE → DONE (FAILED when a partition failed) once no partition is
     QUEUED or SLOTTED; store_result calls it, reclamation repeats it after a
     crash between the two stores. wrong_state while work remains. */
  result<void> complete(job_ref j) noexcept;
  /* Reclamation: a RESERVED record whose writer (the server) died before
     publishing it → FREE. */
  result<void> release_reserved(std::uint64_t index) noexcept;

 private:
  job_record* record(std::uint64_t i) const noexcept;
  /* Partition p of the live job j: stale_generation, no_such_job as get() and for a p past its partitions. */
  result<partition_record*> partition(job_ref j, std::uint32_t p) const noexcept;
  const region* r_;
};

}  // namespace cuzk::shm
