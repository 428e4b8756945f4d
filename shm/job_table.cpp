#include "shm/job_table.hpp"

#include <cstring>

#include "shm/failpoint.hpp"
#include "shm/lease.hpp"
#include "util/utf8.hpp"

namespace cuzk::shm {
namespace {

bool finished(job_state s) noexcept { return s == job_state::done || s == job_state::failed; }

}  // namespace

bool evictable(const job_record& r, std::uint64_t retention_ns) noexcept {
  if (r.fetched.load(std::memory_order_acquire)) return true;
  const std::uint64_t now = now_ns();
  return r.finished_ns && now > r.finished_ns && now - r.finished_ns >= retention_ns;
}

namespace {

void put(char* dst, std::size_t cap, std::string_view v) noexcept {
  std::memset(dst, 0, cap);
  std::memcpy(dst, v.data(), v.size() < cap ? v.size() : cap);
}

/* CAS a partition word from `from` (any attempts) to `to(w)`. */
template <class F>
result<void> part_cas(partition_record& p, part_state from, F to) noexcept {
  std::uint64_t cur = p.word.load(std::memory_order_acquire);
  for (;;) {
    part_word w = part_word::unpack(cur);
    if (w.state != from) return unexpected(error::wrong_state);
    if (p.word.compare_exchange_weak(cur, to(w).pack(), std::memory_order_acq_rel, std::memory_order_acquire))
      return {};
  }
}

}  // namespace

job_record* job_table::record(std::uint64_t i) const noexcept {
  return r_->at<job_record>(r_->header().job_offset) + i;
}

std::uint64_t job_table::capacity() const noexcept { return r_->header().job_capacity; }

std::optional<job_ref> job_table::find(std::string_view job_id, std::optional<std::uint32_t> owner_uid) const noexcept {
  if (job_id.empty() || job_id.size() >= job_id_bytes) return std::nullopt;
  for (std::uint64_t i = 0; i < capacity(); ++i) {
    const job_record* rec = record(i);
    std::uint64_t w = rec->word.load(std::memory_order_acquire);
    job_state s = job_word::unpack(w).state;
    if (s == job_state::free || s == job_state::reserved) continue;
    if (field_text(rec->job_id) != job_id || (owner_uid && rec->owner_uid != *owner_uid)) continue;
    // The id was read after the acquire load; a record evicted meanwhile has another word.
    if (rec->word.load(std::memory_order_acquire) != w) continue;
    return job_ref{i, job_word::unpack(w).generation};
  }
  return std::nullopt;
}

void job_table::mark_fetched(job_ref j) noexcept {
  if (auto rec = get(j)) record(j.index)->fetched.store(1, std::memory_order_release);
}

result<const job_record*> job_table::get(job_ref j) const noexcept {
  if (j.index >= capacity()) return unexpected(error::no_such_job);
  const job_record* rec = record(j.index);
  const job_word w = job_word_of(*rec);
  if (w.state == job_state::free || w.state == job_state::reserved)
    return unexpected(w.generation == j.generation ? error::no_such_job : error::stale_generation);
  if (w.generation != j.generation) return unexpected(error::stale_generation);
  return rec;
}

result<partition_record*> job_table::partition(job_ref j, std::uint32_t p) const noexcept {
  auto rec = get(j);
  if (!rec) return unexpected(rec.error());
  if (p >= (*rec)->n_partitions) return unexpected(error::no_such_job);
  return &record(j.index)->parts[p];
}

result<part_word> job_table::part(job_ref j, std::uint32_t p) const noexcept {
  auto pr = partition(j, p);
  if (!pr) return unexpected(pr.error());
  return part_word::unpack((*pr)->word.load(std::memory_order_acquire));
}

result<submit_outcome> job_table::submit(const job_request& req) noexcept {
  if (req.job_id.empty() || req.partitions == 0) return unexpected(error::bad_config);
  if (req.job_id.size() >= job_id_bytes || req.client.size() >= client_bytes || req.key_id.size() >= 64 ||
      req.spec.size() > spec_bytes || req.partitions > max_partitions)
    return unexpected(error::too_large);
  if (auto found = find(req.job_id, req.owner_uid)) {
    const job_record* known = record(found->index);
    const bool same = std::memcmp(known->digest, req.digest.data(), sizeof known->digest) == 0;
    return submit_outcome{*found, false, !same};
  }

  // A free record, else the oldest finished one (evicted).
  std::uint64_t cap = capacity();
  job_record* rec = nullptr;
  std::uint64_t gen = 0;
  for (int pass = 0; pass < 2 && !rec; ++pass) {
    std::uint64_t victim = cap, victim_seq = ~std::uint64_t{0};
    if (pass == 1) {
      for (std::uint64_t i = 0; i < cap; ++i) {
        std::uint64_t w = record(i)->word.load(std::memory_order_acquire);
        if (finished(job_word::unpack(w).state) && evictable(*record(i), req.retention_ns) &&
            record(i)->seq < victim_seq)
          victim = i, victim_seq = record(i)->seq;
      }
      if (victim == cap) break;
    }
    for (std::uint64_t i = pass == 0 ? 0 : victim; i < (pass == 0 ? cap : victim + 1); ++i) {
      job_record* r = record(i);
      std::uint64_t w = r->word.load(std::memory_order_acquire);
      job_state s = job_word::unpack(w).state;
      if (pass == 0 ? s != job_state::free : !finished(s)) continue;
      if (r->word.compare_exchange_strong(w, job_word{job_state::reserved, job_word::unpack(w).generation + 1}.pack(),
                                          std::memory_order_acq_rel)) {
        rec = r;
        gen = job_word::unpack(w).generation + 1;
        break;
      }
    }
  }
  if (!rec) return unexpected(error::job_table_full);
  failpoint("job.submit.reserve");

  rec->seq = r_->header().job_seq.fetch_add(1, std::memory_order_relaxed);
  rec->priority = req.prio;
  rec->n_partitions = static_cast<std::uint8_t>(req.partitions);
  rec->spec_len = static_cast<std::uint16_t>(req.spec.size());
  rec->error_len = 0;
  rec->submitted_ns = now_ns();
  rec->finished_ns = 0;
  rec->owner_uid = req.owner_uid;
  rec->fetched.store(0, std::memory_order_relaxed);
  std::memcpy(rec->digest, req.digest.data(), sizeof rec->digest);
  put(rec->job_id, job_id_bytes, req.job_id);
  put(rec->client, client_bytes, req.client);
  put(rec->key_id, sizeof rec->key_id, req.key_id);
  rec->curve = req.curve;
  rec->origin = static_cast<std::uint8_t>(req.origin);
  std::memset(rec->spec, 0, spec_bytes);
  std::memcpy(rec->spec, req.spec.data(), req.spec.size());
  std::memset(rec->error, 0, error_bytes);
  for (std::uint32_t p = 0; p < max_partitions; ++p) {
    partition_record& pr = rec->parts[p];
    pr.word.store(part_word{part_state::queued, 0, 0}.pack(), std::memory_order_relaxed);
    pr.syntheses.store(0, std::memory_order_relaxed);
    pr.result_len = 0;
    pr.synth_start_ns = pr.synth_end_ns = pr.prove_start_ns = pr.prove_end_ns = 0;
    pr.proof_generation = 0;
    pr.timings = cpu_timings;
  }
  failpoint("job.submit.fields");
  std::uint64_t index = static_cast<std::uint64_t>(rec - record(0));
  rec->word.store(job_word{job_state::active, gen}.pack(), std::memory_order_release);
  failpoint("job.submit.publish");
  return submit_outcome{job_ref{index, gen}, true};
}

result<void> job_table::mark_slotted(job_ref j, std::uint32_t p, std::uint32_t slot) noexcept {
  auto rec = get(j);
  if (!rec) return unexpected(rec.error());
  if (job_word_state(**rec) != job_state::active) return unexpected(error::wrong_state);
  auto pr = partition(j, p);
  if (!pr) return unexpected(pr.error());
  if (slot >= r_->header().n_slots) return unexpected(error::no_such_slot);
  auto r = part_cas(**pr, part_state::queued, [&](part_word w) {
    return part_word{part_state::slotted, slot, w.attempts};
  });
  if (r) failpoint("job.mark_slotted.cas");
  return r;
}

result<void> job_table::requeue(job_ref j, std::uint32_t p) noexcept {
  auto pr = partition(j, p);
  if (!pr) return unexpected(pr.error());
  auto r = part_cas(**pr, part_state::slotted, [](part_word w) {
    return part_word{part_state::queued, 0, w.attempts + 1};
  });
  if (r) failpoint("job.requeue.cas");
  return r;
}

result<void> job_table::unslot(job_ref j, std::uint32_t p) noexcept {
  auto part = partition(j, p);
  if (!part) return unexpected(part.error());
  partition_record& pr = **part;
  auto r = part_cas(pr, part_state::slotted, [](part_word w) { return part_word{part_state::queued, 0, w.attempts}; });
  // Its start does not count towards the poison limit (a synthesis that ended its worker).
  if (r)
    for (auto n = pr.syntheses.load(std::memory_order_relaxed);
         n && !pr.syntheses.compare_exchange_weak(n, n - 1, std::memory_order_relaxed);)
      ;
  return r;
}

void job_table::count_synthesis(job_ref j, std::uint32_t p) noexcept {
  auto pr = partition(j, p);
  if (!pr) return;
  (*pr)->syntheses.fetch_add(1, std::memory_order_relaxed);
  failpoint("job.count_synthesis");
}

void job_table::note_times(job_ref j, std::uint32_t p, std::uint64_t synth_start, std::uint64_t synth_end,
                           std::uint64_t prove_start, std::uint64_t prove_end) noexcept {
  auto part = partition(j, p);
  if (!part) return;
  partition_record& pr = **part;
  if (synth_start) pr.synth_start_ns = synth_start;
  if (synth_end) pr.synth_end_ns = synth_end;
  if (prove_start) pr.prove_start_ns = prove_start;
  if (prove_end) pr.prove_end_ns = prove_end;
}

result<void> job_table::store_result(job_ref j, std::uint32_t p, std::uint64_t slot_gen,
                                     std::span<const std::uint8_t> bytes, const partition_timings& timings) noexcept {
  auto part = partition(j, p);
  if (!part) return unexpected(part.error());
  if (bytes.size() > result_bytes) return unexpected(error::too_large);
  job_record& r = *record(j.index);
  partition_record& pr = **part;
  part_word w = part_word::unpack(pr.word.load(std::memory_order_acquire));
  if (w.state == part_state::done) {
    if (pr.proof_generation == slot_gen) return {};  // the same proof again: dedup
    return unexpected(error::wrong_state);
  }
  if (w.state != part_state::slotted || job_word_state(r) != job_state::active) return unexpected(error::wrong_state);
  std::memcpy(pr.result, bytes.data(), bytes.size());
  pr.result_len = static_cast<std::uint32_t>(bytes.size());
  pr.proof_generation = slot_gen;
  pr.timings = timings;
  failpoint("job.store_result.bytes");
  auto done = part_cas(pr, part_state::slotted, [](part_word x) {
    return part_word{part_state::done, x.slot, x.attempts};
  });
  if (!done) return done;
  failpoint("job.store_result.part");
  (void)complete(j);
  return {};
}

result<void> job_table::complete(job_ref j) noexcept {
  auto rec = get(j);
  if (!rec) return unexpected(rec.error());
  job_record& r = *record(j.index);
  bool failed = false;
  for (std::uint32_t p = 0; p < r.n_partitions; ++p) {
    part_state s = part_word::unpack(r.parts[p].word.load(std::memory_order_acquire)).state;
    if (s == part_state::queued || s == part_state::slotted) return unexpected(error::wrong_state);
    failed |= s == part_state::failed;
  }
  std::uint64_t w = job_word{job_state::active, j.generation}.pack();
  r.finished_ns = now_ns();
  if (!r.word.compare_exchange_strong(w, job_word{failed ? job_state::failed : job_state::done, j.generation}.pack(),
                                      std::memory_order_acq_rel))
    return unexpected(error::wrong_state);
  failpoint("job.complete.cas");
  return {};
}

result<void> job_table::fail_job(job_ref j, std::string_view text) noexcept {
  auto rec = get(j);
  if (!rec) return unexpected(rec.error());
  for (std::uint32_t p = 0; p < (*rec)->n_partitions; ++p)
    if (const auto s = part_word::unpack((*rec)->parts[p].word.load(std::memory_order_acquire)).state;
        s != part_state::done && s != part_state::failed)
      return fail(j, p, text);
  return unexpected(error::wrong_state);
}

result<void> job_table::fail(job_ref j, std::uint32_t p, std::string_view text) noexcept {
  auto part = partition(j, p);
  if (!part) return unexpected(part.error());
  job_record& r = *record(j.index);
  if (job_word_state(r) != job_state::active) return unexpected(error::wrong_state);
  if (part_state s = part_word::unpack(r.parts[p].word.load(std::memory_order_acquire)).state;
      s == part_state::done || s == part_state::failed)
    return unexpected(error::wrong_state);
  std::memset(r.error, 0, error_bytes);
  r.error_len = static_cast<std::uint32_t>(util::copy_utf8(text, r.error, error_bytes - 1));  // never a cut character
  failpoint("job.fail.text");
  std::uint64_t cur = r.parts[p].word.load(std::memory_order_acquire);
  for (;;) {
    part_word w = part_word::unpack(cur);
    if (w.state == part_state::done || w.state == part_state::failed) return unexpected(error::wrong_state);
    if (r.parts[p].word.compare_exchange_weak(cur, part_word{part_state::failed, w.slot, w.attempts}.pack(),
                                              std::memory_order_acq_rel, std::memory_order_acquire))
      break;
  }
  failpoint("job.fail.part");
  std::uint64_t w = job_word{job_state::active, j.generation}.pack();
  r.finished_ns = now_ns();
  r.word.compare_exchange_strong(w, job_word{job_state::failed, j.generation}.pack(), std::memory_order_acq_rel);
  failpoint("job.fail.job");
  return {};
}

result<void> job_table::release_reserved(std::uint64_t index) noexcept {
  if (index >= capacity()) return unexpected(error::no_such_job);
  job_record& r = *record(index);
  std::uint64_t w = r.word.load(std::memory_order_acquire);
  if (job_word::unpack(w).state != job_state::reserved) return unexpected(error::wrong_state);
  if (!r.word.compare_exchange_strong(w, job_word{job_state::free, job_word::unpack(w).generation}.pack(),
                                      std::memory_order_acq_rel))
    return unexpected(error::wrong_state);
  failpoint("job.release_reserved.cas");
  return {};
}

}  // namespace cuzk::shm
