// Client requests: Submit (idempotent by job id), Status, Fetch, Wait.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <fstream>
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
#include "shm/failpoint.hpp"
#include "shm/srs_region.hpp"
#include "server.hpp"

namespace cuzk::server {

namespace {

using nlohmann::json;

/* circuit_error for unknown circuits and inputs that do not parse; job_error
   when the circuit does not fit the key. */
void check_native(const groth16::proving_key& pk, const proto::native_work& w, std::uint32_t partitions) {
  auto c = circuits::make_circuit(w.circuit);
  const auto n = c->count();
  if (n.inputs + n.aux != pk.n_vars || n.inputs != pk.n_public + 1)
    throw job::job_error("the key was made for another circuit (" + c->spec() + " has " +
                         std::to_string(n.inputs + n.aux) + " wires, the key " + std::to_string(pk.n_vars) + ")");
  json j = json::parse(w.inputs_json, nullptr, false);
  if (j.is_discarded()) throw job::job_error("the inputs are not JSON");
  if (j.is_array()) {
    if (j.size() != partitions)
      throw job::job_error("the inputs hold " + std::to_string(j.size()) + " partitions, the job has " +
                           std::to_string(partitions));
    for (const auto& e : j) c->parse_inputs(e);
  } else {
    c->parse_inputs(j);
  }
}

void check_circom(const groth16::proving_key& pk, const proto::circom_work& w) {
  // Mapped: the size check reads the headers only, not a witness of gigabytes.
  std::unique_ptr<r1cs::mapped_file> f;
  try {
    f = std::make_unique<r1cs::mapped_file>(w.wtns, "wtns");
  } catch (const r1cs::error&) {
    throw job::job_error("cannot read the witness " + w.wtns);
  }
  std::uint64_t n = 0;
  try {
    n = r1cs::wtns_size(f->bytes());
  } catch (const r1cs::error& e) {
    throw job::job_error(w.wtns + ": " + e.what());
  }
  if (n != pk.n_vars)
    throw job::job_error("the witness has " + std::to_string(n) + " values, the key expects " +
                         std::to_string(pk.n_vars) + " (witness of another circuit?)");
  if (w.r1cs && !std::ifstream(*w.r1cs)) throw job::job_error("cannot read the constraint system " + *w.r1cs);
}

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
  const auto w = rec.word.load(std::memory_order_acquire);
  st.job_id = std::string(shm::field_text(rec.job_id));
  st.state = job_state_of(rec, static_cast<shm::job_state>(w & 0xf));
  st.error = std::string(rec.error, std::min<std::size_t>(rec.error_len, sizeof rec.error));
  st.submitted_ns = rec.submitted_ns;
  st.finished_ns = rec.finished_ns;
  st.priority = static_cast<proto::priority>(rec.priority);
  st.client = std::string(shm::field_text(rec.client));
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
    st.partitions.push_back(ps);
  }
  return st;
}

void server::on_submit(const std::string& id, std::uint64_t rq, const proto::submit& s) {
  ++counters_.submits;
  if (!accepting_) return reply_error(id, rq, proto::error_code::unavailable, "the server is shutting down");
  if (auto known = jobs_->find(s.job_id)) {  // idempotent: the same job, never proven twice
    auto rec = jobs_->get(*known);
    if (rec) {
      send(id, proto::message{rq, proto::accepted{s.job_id, false, job_status_of(*known, **rec).state}});
      return;
    }
  }
  job::spec sp;
  std::string key_id;
  try {
    key_id = keys_.load(s.zkey);
    shm::failpoint("server.key.loaded");
    auto pk = keys_.get(key_id);
    std::string unusable;
    if (!slots_->class_for(pk->domain_size, pk->n_vars))
      unusable = "no slot class of pool " + opt_.pool + " holds domain 2^" + std::to_string(pk->log_domain()) +
                 " with " + std::to_string(pk->n_vars) + " witness values; create the pool with a larger --slots class";
    else if (job::result_bytes_for(pk->n_public) > shm::result_bytes)
      unusable = "the key has " + std::to_string(pk->n_public) + " public signals; a job's proof and public " +
                 "signals must fit " + std::to_string(shm::result_bytes) + " bytes (at most " +
                 std::to_string((shm::result_bytes - job::result_bytes_for(0)) / 32) + " public signals)";
    if (!unusable.empty()) {
      drop_unused_key(key_id);  // no job can use it: do not keep a copy in /dev/shm
      return reply_error(id, rq, proto::error_code::bad_request, unusable);
    }
    sp.zkey = s.zkey;
    if (const auto* n = std::get_if<proto::native_work>(&s.work)) {
      check_native(*pk, *n, s.partitions);
      sp.circuit = n->circuit;
      sp.inputs = n->inputs_json;
    } else {
      const auto& c = std::get<proto::circom_work>(s.work);
      check_circom(*pk, c);
      sp.wtns = c.wtns;
      sp.r1cs = c.r1cs.value_or("");
    }
    if (s.blinding) {
      sp.blinding = s.blinding->r + "," + s.blinding->s;
      if (!groth16::blinding::parse(*sp.blinding))  // else the prover would silently draw random ones
        return reply_error(id, rq, proto::error_code::bad_request, "the blinding values r and s must be below r");
    }
  } catch (const circuits::circuit_error& e) {
    return reply_error(id, rq, proto::error_code::unknown_circuit, e.what());
  } catch (const std::exception& e) {
    return reply_error(id, rq, proto::error_code::bad_request, e.what());
  }
  const std::string spec_json = sp.to_json();
  if (spec_json.size() > shm::spec_bytes)
    return reply_error(id, rq, proto::error_code::too_large,
                       "the job description is " + std::to_string(spec_json.size()) + " bytes, the job table holds " +
                           std::to_string(shm::spec_bytes));
  shm::job_request req{s.job_id, s.client, key_id, spec_json, static_cast<shm::priority>(s.priority), s.partitions};
  auto out = jobs_->submit(req);
  if (!out) {
    auto code = out.error() == shm::error::job_table_full ? proto::error_code::table_full : proto::error_code::internal;
    return reply_error(id, rq, code, std::string("cannot record the job: ") + std::string(to_string(out.error())));
  }
  auto rec = jobs_->get(out->job);
  if (out->created && rec)
    for (std::uint32_t p = 0; p < s.partitions; ++p) queue_.push({static_cast<shm::priority>(s.priority), (*rec)->seq, out->job, p});
  shm::failpoint("server.submit.accepted");
  send(id, proto::message{rq, proto::accepted{s.job_id, out->created,
                                              rec ? job_status_of(out->job, **rec).state : proto::job_state::queued}});
  if (out->created) spdlog::info("job {} accepted ({} partition(s), priority {})", s.job_id, s.partitions, int(s.priority));
  dispatch();
}

void server::on_status(const std::string& id, std::uint64_t rq, const proto::status_request& s) {
  if (s.job_id) {
    auto j = jobs_->find(*s.job_id);
    auto rec = j ? jobs_->get(*j) : shm::result<const shm::job_record*>(shm::unexpected(shm::error::no_such_job));
    if (!rec) return reply_error(id, rq, proto::error_code::unknown_job, "no job " + *s.job_id);
    send(id, proto::message{rq, job_status_of(*j, **rec)});
    return;
  }
  proto::status_reply st;
  std::vector<std::pair<std::uint64_t, proto::job_status>> jobs;
  jobs_->for_each([&](shm::job_ref j, const shm::job_record& rec) {
    if ((rec.word.load(std::memory_order_acquire) & 0xf) != static_cast<std::uint64_t>(shm::job_state::reserved))
      jobs.emplace_back(rec.seq, job_status_of(j, rec));
  });
  std::sort(jobs.begin(), jobs.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
  constexpr std::size_t max_jobs = 200;
  for (std::size_t i = 0; i < jobs.size() && i < max_jobs; ++i) st.jobs.push_back(std::move(jobs[i].second));
  st.jobs_omitted = jobs.size() > max_jobs ? static_cast<std::uint32_t>(jobs.size() - max_jobs) : 0;
  for (std::uint64_t i = 0; i < slots_->size(); ++i) {
    auto w = slots_->word(i);
    if (!w) continue;
    st.slots.push_back({i, slots_->class_of(i), static_cast<proto::slot_state>(static_cast<int>(w->state) + 1),
                        w->generation, w->owner});
  }
  const auto now = shm::now_ns();
  for (const auto& [lease, w] : workers_) {
    const auto* e = shm::lease_entries(*region_) + lease;
    const auto hb = e->heartbeat_ns.load(std::memory_order_relaxed);
    proto::worker_status ws{lease, w.name, w.pid, w.busy ? proto::worker_state::busy : proto::worker_state::idle,
                            hb && now > hb ? (now - hb) / 1000000 : 0};
    if (shm::is_hung(*region_, lease, 30'000'000'000ULL)) ws.state = proto::worker_state::hung;
    st.workers.push_back(ws);
  }
  send(id, proto::message{rq, std::move(st)});
}

void server::drop_unused_key(const std::string& key_id) {
  bool used = false;
  jobs_->for_each([&](shm::job_ref, const shm::job_record& rec) {
    used = used || shm::field_text(rec.key_id) == key_id;
  });
  if (used) return;
  keys_.forget(key_id);
  (void)shm::srs_region::destroy(opt_.pool, key_id);
}

bool server::answer_finished(const std::string& id, std::uint64_t rq, shm::job_ref j) {
  auto rec = jobs_->get(j);
  if (!rec) return false;
  const auto state = static_cast<shm::job_state>((*rec)->word.load(std::memory_order_acquire) & 0xf);
  if (state == shm::job_state::failed) {
    send(id, proto::message{rq, job_status_of(j, **rec)});
    return true;
  }
  if (state != shm::job_state::done) return false;
  proto::proof_reply pr;
  pr.job_id = std::string(shm::field_text((*rec)->job_id));
  for (std::uint32_t p = 0; p < (*rec)->n_partitions; ++p) {
    const auto& part = (*rec)->parts[p];
    try {
      auto r = job::decode_result({part.result, std::min<std::size_t>(part.result_len, shm::result_bytes)});
      pr.partitions.push_back({io::proof_to_json(r.proof).dump(), io::public_to_json(r.public_signals).dump()});
    } catch (const std::exception& e) {
      reply_error(id, rq, proto::error_code::internal, "job " + pr.job_id + ": " + e.what());
      return true;
    }
  }
  send(id, proto::message{rq, std::move(pr)});
  return true;
}

void server::on_fetch(const std::string& id, std::uint64_t rq, const proto::fetch& f) {
  auto j = jobs_->find(f.job_id);
  if (!j) return reply_error(id, rq, proto::error_code::unknown_job, "no job " + f.job_id);
  if (answer_finished(id, rq, *j)) return;
  auto rec = jobs_->get(*j);
  if (rec) send(id, proto::message{rq, job_status_of(*j, **rec)});
}

void server::on_wait(const std::string& id, std::uint64_t rq, const proto::wait_request& w) {
  auto j = jobs_->find(w.job_id);
  if (!j) return reply_error(id, rq, proto::error_code::unknown_job, "no job " + w.job_id);
  if (answer_finished(id, rq, *j)) return;
  waiters_.push_back({id, rq, w.job_id, std::chrono::steady_clock::now() + std::chrono::milliseconds(w.timeout_ms)});
}

void server::notify_waiters(shm::job_ref j) {
  auto rec = jobs_->get(j);
  if (!rec) return;
  const std::string job_id = std::string(shm::field_text((*rec)->job_id));
  std::vector<waiter> ready;
  std::erase_if(waiters_, [&](const waiter& w) {
    if (w.job_id != job_id) return false;
    ready.push_back(w);
    return true;
  });
  for (const auto& w : ready)
    if (!answer_finished(w.identity, w.request_id, j)) waiters_.push_back(w);
}

}  // namespace cuzk::server
