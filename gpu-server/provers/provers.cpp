#include "provers/provers.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <type_traits>

#include "backend/fault.hpp"
#include "groth16/verifier.hpp"
#include "job/result.hpp"
#include "job/slot_buffers.hpp"
#include "job/spec.hpp"
#include "provers/proof_job.hpp"
#include "shm/failpoint.hpp"
#include "util/utf8.hpp"

namespace cuzk::server {

provers::provers(context c, hooks h) : c_(c), h_(std::move(h)) {
  const unsigned n = std::max(1u, c_.backend.concurrency());
  const auto gpus = std::max<std::size_t>(1, c_.backend.gpus().size());
  reserved_ = static_cast<unsigned>(std::min<std::size_t>(std::size_t(c_.opt.critical.reserve_provers) * gpus, n - 1));
  for (unsigned i = 0; i < n; ++i) threads_.emplace_back([this] { run(); });
}

provers::~provers() {
  {
    std::lock_guard lk(mu_);
    exit_ = true;
  }
  cv_.notify_all();
  for (auto& t : threads_)
    if (t.joinable()) t.join();
}

/* The FILLED slot to prove next: the highest priority, then the oldest
   job. Slots whose partition no longer waits for them are discarded. */
std::optional<std::pair<int, std::uint64_t>> provers::next_filled() {
  std::optional<std::tuple<int, std::uint64_t, std::uint64_t>> best;  // (priority, seq, slot)
  for_each_filled([&](std::uint64_t s, const shm::slot_word& w, const shm::slot_entry& e, const auto& rec) {
    const auto pw = rec && e.partition < (*rec)->n_partitions
                        ? std::optional(shm::part_word::unpack((*rec)->parts[e.partition].word.load()))
                        : std::nullopt;
    if (!rec || shm::job_word_state(**rec) != shm::job_state::active || !pw || pw->state != shm::part_state::slotted ||
        pw->slot != s) {
      (void)c_.slots.discard(s, w.generation);  // its job failed, was proven already, or moved to another slot
      return;
    }
    std::tuple<int, std::uint64_t, std::uint64_t> k{shm::rank((*rec)->priority), (*rec)->seq, s};
    if (!best || k < *best) best = k;
  });
  if (!best) return std::nullopt;
  return std::pair(std::get<0>(*best), std::get<2>(*best));
}

/* The proof of one FILLED slot, its key parsed and its blinding read; nullopt when it cannot start now. */
std::optional<proof_job> provers::proof_of(std::uint64_t s) {
  auto w = c_.slots.word(s);
  auto e = c_.slots.entry(s);
  if (!w || !e) return std::nullopt;
  const shm::job_ref j = shm::job_of(**e);
  auto rec = c_.jobs.get(j);
  if (!rec) return std::nullopt;
  proof_job pj{s,           w->generation, j, (*e)->partition, nullptr, std::string(shm::field_text((*rec)->key_id)),
               std::nullopt};
  pj.pk = c_.keys.ready(pj.key_id);
  if (!pj.pk) return std::nullopt;  // parsing on the pool; dispatch runs again when it is ready
  try {
    if ((*e)->curve != std::uint64_t(pj.pk->curve))
      throw std::runtime_error("slot " + std::to_string(s) +
                               " was filled with elements of another curve than the key's (" +
                               std::string(curves::display_name(pj.pk->curve)) + ")");
    pj.blinding = job::spec::from_json(std::string_view((*rec)->spec, (*rec)->spec_len)).blinding;
  } catch (const std::exception& ex) {
    (void)c_.jobs.fail(j, pj.partition, ex.what());
    (void)c_.slots.discard(s, w->generation);
    h_.job_changed(j);
    return std::nullopt;
  }
  return pj;
}

/* As many proofs in flight as the backend takes at once (DESIGN §5: two per GPU, two workers or one worker's
   two lanes, the second proof's inputs copied while the first one's MSMs run). */
void provers::start() {
  while (!c_.loop.stopping && !c_.loop.held && proving_ < threads_.size()) {
    const auto s = next_filled();
    if (!s) return;
    if (s->first >= 0 && proving_ + reserved_ >= threads_.size()) break;  // the rest wait for critical slots
    auto pj = proof_of(s->second);
    if (!pj) return;
    if (!c_.slots.start_proving(pj->slot, pj->gen, c_.lease.index())) return;
    ++proving_;
    if (auto rec = c_.jobs.get(pj->job))
      in_flight_[pj->slot] = {shm::rank((*rec)->priority), (*rec)->seq, pj->stop, pj->job};
    {
      std::lock_guard lk(mu_);
      to_prove_.push_back(std::move(*pj));
    }
    cv_.notify_one();
  }
  preempt();
}

// One stop per critical FILLED slot waiting beyond the proofs already stopping; the proof stopped is the
// lowest priority's, newest job's.
void provers::preempt() {
  if (c_.loop.stopping || c_.loop.held || proving_ < threads_.size()) return;
  std::size_t waiting = 0, stopping = 0;
  for_each_filled([&](std::uint64_t, const shm::slot_word&, const shm::slot_entry&, const auto& rec) {
    waiting += rec && shm::rank((*rec)->priority) < 0;
  });
  for (const auto& [slot, p] : in_flight_) stopping += p.stop->load();
  while (stopping < waiting) {
    auto victim = in_flight_.end();
    for (auto it = in_flight_.begin(); it != in_flight_.end(); ++it)
      if (it->second.rank >= 0 && !it->second.stop->load() &&
          c_.counters.preemptions.preemptible(it->second.job, c_.opt.critical.max_preemptions) &&
          (victim == in_flight_.end() ||
           std::pair(it->second.rank, it->second.seq) > std::pair(victim->second.rank, victim->second.seq)))
        victim = it;
    if (victim == in_flight_.end()) return;
    victim->second.stop->store(true, std::memory_order_release);
    ++stopping;
    spdlog::info(
        "a critical slot waits: the proof of slot {} stops at its next phase boundary (job {}: preemption {} of "
        "at most {})",
        victim->first, victim->second.job.index, c_.counters.preemptions.note(victim->second.job),
        c_.opt.critical.max_preemptions);
  }
}

void provers::run() {
  for (;;) {
    proof_job pj;
    {
      std::unique_lock lk(mu_);
      cv_.wait(lk, [&] { return exit_ || !to_prove_.empty(); });
      if (to_prove_.empty()) return;
      pj = std::move(to_prove_.front());
      to_prove_.pop_front();
    }
    boost::asio::post(c_.io, [this, d = prove(std::move(pj))]() mutable { done(std::move(d)); });
  }
}

/* One proof on this thread: proven by the backend, verified, encoded; or why not. */
proof_done provers::prove(proof_job pj) {
  proof_done d{pj, {}, {}, shm::now_ns(), 0, {}, 0, std::nullopt};
  try {
    auto payload = c_.slots.payload(pj.slot);
    if (!payload) throw std::runtime_error("slot payload unavailable");
    pj.pk.visit([&](const auto& pk) {
      using C = typename std::remove_cvref_t<decltype(pk)>::curve;
      const auto buf = job::slot_buffers<C>(*payload, pk);
      std::optional<groth16::basic_blinding<C>> rs;
      if (pj.blinding && !(rs = groth16::basic_blinding<C>::from_bytes(*pj.blinding)))
        throw std::runtime_error("the job's blinding values are not below the key's r");
      const basic_prove_input<C> in{pk, pj.key_id, buf.a, buf.b, buf.c, buf.z, rs, pj.stop.get()};
      auto out = c_.backend.prove(in);
      std::vector<ff::fr<C>> pub(in.z.begin() + 1, in.z.begin() + 1 + pk.n_public);
      const auto verify_start = std::chrono::steady_clock::now();
      if (!groth16::verify<C>(pk.vk(), pub, out.proof))
        throw std::runtime_error("the witness does not satisfy the circuit: the proof does not verify");
      d.verify = std::chrono::duration<double>(std::chrono::steady_clock::now() - verify_start).count();
      d.result = job::encode_result<C>({out.proof, std::move(pub)});
      d.timings = out.timings;
      d.gpu = out.gpu;
      d.worker = out.worker;
      d.stage = out.stage;
      d.streamed = out.streamed;
    });
    shm::failpoint("server.proved");  // crash tests: die with the proof computed but not stored
  } catch (const device_fault& e) {
    d.error = e.what();
    d.device_fault = e.sticky();
  } catch (const groth16::preempted& e) {
    d.error = e.what();
    d.preempted = true;
  } catch (const std::exception& e) {
    d.error = e.what();
  }
  d.end_ns = shm::now_ns();
  return d;
}

// A device error is not the job's fault: the slot goes back to FILLED (its
// bytes are intact) and is proven again, up to device_attempts times. A
// sticky one leaves this process's context unusable: the server exits with
// exit_device_lost and the next server proves the FILLED slot, no new synthesis.
void provers::on_device_error(const proof_done& d) {
  const auto& w = d.what;
  if (*d.device_fault) {
    const bool filled =
        static_cast<bool>(c_.slots.reclaim_proving(w.slot, w.gen, c_.lease.index()));  // PROVING → FILLED
    spdlog::critical(
        "job {} partition {}: {}; the device is lost: slot {} is {} and the server exits with code {} "
        "so that it is restarted",
        w.job.index, w.partition, util::printable(d.error), w.slot, filled ? "FILLED again" : "left to reclamation",
        exit_device_lost);
    h_.device_lost();
    return;
  }
  const auto key = std::pair(w.slot, w.gen);
  const unsigned failures = ++device_failures_[key];
  if (failures < std::max(1u, c_.opt.device_attempts) && c_.slots.reclaim_proving(w.slot, w.gen, c_.lease.index())) {
    spdlog::warn("job {} partition {}: {} (device attempt {} of {}); slot {} is FILLED again and will be retried",
                 w.job.index, w.partition, util::printable(d.error), failures, c_.opt.device_attempts, w.slot);
    return;
  }
  device_failures_.erase(key);
  ++c_.counters.failed;
  spdlog::warn("job {} partition {} failed after {} device error(s): {}", w.job.index, w.partition, failures,
               util::printable(d.error));
  (void)c_.jobs.fail(w.job, w.partition, d.error);
  (void)c_.slots.abandon(w.slot, w.gen, c_.lease.index());
}

void provers::done(proof_done d) {
  --proving_;
  const auto& w = d.what;
  in_flight_.erase(w.slot);
  if (d.preempted) {
    // Nothing is lost: the slot's a, b, c and z are intact, and it is proven again later.
    const bool filled =
        static_cast<bool>(c_.slots.reclaim_proving(w.slot, w.gen, c_.lease.index()));  // PROVING → FILLED
    ++c_.counters.preempted;
    spdlog::info("job {} partition {}: proof preempted for a critical one after {:.3f} s; slot {} is {}", w.job.index,
                 w.partition, (d.end_ns - d.start_ns) / 1e9, w.slot, filled ? "FILLED again" : "gone");
  } else if (d.device_fault) {
    on_device_error(d);
    if (c_.loop.exit_code) return;
  } else {
    stored(d);
  }
  h_.job_changed(w.job);
  h_.finished();
}

// A proof (or a proving error that is not the device's) for its slot: stored
// and the slot released, or the job failed and the slot abandoned.
void provers::stored(const proof_done& d) {
  const auto& w = d.what;
  device_failures_.erase(std::pair(w.slot, w.gen));
  std::uint64_t witness_ns = 0;
  if (auto e = c_.slots.entry(w.slot)) {
    const std::uint64_t synth_end = (*e)->filled_ns, synth_start = synth_end - std::min(synth_end, (*e)->synth_ns);
    witness_ns = (*e)->witness_ns;
    c_.jobs.note_times(w.job, w.partition, synth_start, synth_end, d.start_ns, d.end_ns);
    if (d.error.empty()) h_.observed(d, synth_start, synth_end);
  }
  if (d.error.empty()) {
    auto timings = partition_timings_of(d.timings, d.verify, d.gpu);
    timings.witness_us = static_cast<std::uint32_t>(std::min<std::uint64_t>(witness_ns / 1000, UINT32_MAX));
    if (auto r = c_.jobs.store_result(w.job, w.partition, w.gen, d.result, timings); !r) {
      spdlog::warn("job {} partition {}: storing the proof: {}", w.job.index, w.partition, to_string(r.error()));
      // A result that can never be stored fails the job rather than leaving it running forever.
      if (r.error() == shm::error::too_large)
        (void)c_.jobs.fail(w.job, w.partition,
                           "the proof and public signals (" + std::to_string(d.result.size()) +
                               " bytes) do not fit the job table's " + std::to_string(shm::result_bytes) + " bytes");
    }
    shm::failpoint("server.proof.stored");
    ++c_.counters.proofs;
    const auto rec = c_.jobs.get(w.job);
    spdlog::info("proven job={} partition={} backend={} gpu={} prover={} streamed={} {} wait_ms={:.1f}",
                 rec ? util::printable(shm::field_text((*rec)->job_id)) : std::to_string(w.job.index), w.partition,
                 c_.backend.name(), d.gpu, d.worker, d.streamed, timings_log_fields(d.timings, d.verify, d.stage),
                 d.timings.wait * 1e3);
    (void)c_.slots.release(w.slot, w.gen, c_.lease.index());
  } else {
    ++c_.counters.failed;
    spdlog::warn("job {} partition {} failed: {}", w.job.index, w.partition, util::printable(d.error));
    (void)c_.jobs.fail(w.job, w.partition, d.error);
    (void)c_.slots.abandon(w.slot, w.gen, c_.lease.index());
  }
}

}  // namespace cuzk::server
