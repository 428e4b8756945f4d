// struct → wire::Envelope → bytes. Plain field copies; the wire enums share
// the structs' numbering except Priority, whose zero is NORMAL (wire_map.cpp).
#include <type_traits>

#include "proto/codec.hpp"
#include "proto/cuzk.pb.h"
#include "proto/limits.hpp"
#include "proto/wire_map.hpp"

namespace cuzk::proto {

namespace {

template <class... F>
struct overloaded : F... {
  using F::operator()...;
};
template <class... F>
overloaded(F...) -> overloaded<F...>;

void put(wire::PartitionStatus& w, const partition_status& p) {
  w.set_state(static_cast<wire::PartitionState>(p.state));
  w.set_synth_start_ns(p.synth_start_ns);
  w.set_synth_end_ns(p.synth_end_ns);
  w.set_prove_start_ns(p.prove_start_ns);
  w.set_prove_end_ns(p.prove_end_ns);
  w.set_syntheses(p.syntheses);
  w.set_attempts(p.attempts);
  w.set_gpu(p.gpu);
  w.set_witness_us(p.witness_us);
  if (p.timings) proto::put(*w.mutable_timings(), *p.timings);
}

void put(wire::JobStatus& w, const job_status& s) {
  w.set_job_id(s.job_id);
  w.set_state(static_cast<wire::JobState>(s.state));
  w.set_error(s.error);
  w.set_submitted_ns(s.submitted_ns);
  w.set_finished_ns(s.finished_ns);
  w.set_priority(proto::to_wire(s.priority));
  w.set_client(s.client);
  w.set_curve(static_cast<wire::Curve>(s.curve));
  for (const auto& p : s.partitions) put(*w.add_partitions(), p);
}

void put(wire::Capacity& w, const capacity& c) {
  for (const auto& k : c.keys) {
    auto* wk = w.add_keys();
    wk->set_key_id(k.key_id);
    wk->set_priority(proto::to_wire(k.priority));
    wk->set_queued(k.queued);
    wk->set_running(k.running);
  }
  for (const auto& k : c.classes) {
    auto* wc = w.add_classes();
    wc->set_class_index(k.class_index);
    wc->set_domain(k.domain);
    wc->set_witness(k.witness);
    wc->set_slots(k.slots);
    wc->set_free(k.free);
  }
  for (const auto& k : c.circuits) {
    auto* wc = w.add_circuits();
    wc->set_name(k.name);
    wc->set_generator(k.generator);
    wc->set_key_id(k.key_id);
  }
  w.set_partitions_per_minute(c.partitions_per_minute);
  w.set_estimated_wait_s(c.estimated_wait_s);
  w.set_accepting(c.accepting);
  w.set_refusal(c.refusal);
  w.set_jobs_held(c.jobs_held);
  w.set_jobs_limit(c.jobs_limit);
}

void put(wire::ClusterView& w, const cluster_view& c) {
  w.set_node(c.node);
  w.set_database_up(c.database_up);
  w.set_database_error(c.database_error);
  w.set_dead_after_ms(c.dead_after_ms);
  for (const auto& n : c.nodes) {
    auto* wn = w.add_nodes();
    wn->set_name(n.name);
    wn->set_alive(n.alive);
    wn->set_heartbeat_age_ms(n.heartbeat_age_ms);
    wn->set_claims(n.claims);
    wn->set_keys(n.keys);
    for (const auto& k : n.key_ids) wn->add_key_ids(k);
  }
  w.set_queued(c.queued);
}

void put(wire::Envelope& e, const body& b) {
  std::visit(overloaded{
                 [&](const submit& m) {
                   auto* w = e.mutable_submit();
                   w->set_job_id(m.job_id);
                   w->set_client(m.client);
                   w->set_priority(proto::to_wire(m.priority));
                   w->set_partitions(m.partitions);
                   w->set_zkey(m.zkey);
                   if (const auto* n = std::get_if<native_work>(&m.work)) {
                     w->mutable_native()->set_circuit(n->circuit);
                     w->mutable_native()->set_inputs_json(n->inputs_json);
                   } else if (const auto* c = std::get_if<circom_work>(&m.work)) {
                     w->mutable_circom()->set_wtns(c->wtns);
                     if (c->r1cs) w->mutable_circom()->set_r1cs(*c->r1cs);
                   } else {
                     const auto& i = std::get<installed_work>(m.work);
                     w->mutable_installed()->set_circuit(i.circuit);
                     w->mutable_installed()->set_inputs_json(i.inputs_json);
                   }
                   if (m.blinding) {
                     w->mutable_blinding()->set_r(m.blinding->r);
                     w->mutable_blinding()->set_s(m.blinding->s);
                   }
                 },
                 [&](const status_request& m) {
                   auto* w = e.mutable_status_request();
                   if (m.job_id) w->set_job_id(*m.job_id);
                   if (m.owner_uid) w->set_owner_uid(*m.owner_uid);
                   w->set_capacity_only(m.capacity_only);
                   w->set_cluster(m.cluster);
                 },
                 [&](const upload& m) {
                   auto* w = e.mutable_upload();
                   w->set_upload_id(m.upload_id);
                   w->set_kind(static_cast<wire::UploadKind>(m.kind));
                   w->set_size(m.size);
                   w->set_offset(m.offset);
                   w->set_data(m.data);
                   w->set_zkey(m.zkey);
                 },
                 [&](const upload_ack& m) {
                   e.mutable_upload_ack()->set_upload_id(m.upload_id);
                   e.mutable_upload_ack()->set_received(m.received);
                 },
                 [&](const cancel_request& m) {
                   e.mutable_cancel()->set_job_id(m.job_id);
                   if (m.owner_uid) e.mutable_cancel()->set_owner_uid(*m.owner_uid);
                 },
                 [&](const fetch& m) {
                   e.mutable_fetch()->set_job_id(m.job_id);
                   if (m.owner_uid) e.mutable_fetch()->set_owner_uid(*m.owner_uid);
                 },
                 [&](const wait_request& m) {
                   e.mutable_wait()->set_job_id(m.job_id);
                   e.mutable_wait()->set_timeout_ms(m.timeout_ms);
                   if (m.owner_uid) e.mutable_wait()->set_owner_uid(*m.owner_uid);
                 },
                 [&](const accepted& m) {
                   auto* w = e.mutable_accepted();
                   w->set_job_id(m.job_id);
                   w->set_created(m.created);
                   w->set_state(static_cast<wire::JobState>(m.state));
                 },
                 [&](const job_status& m) { put(*e.mutable_job_status(), m); },
                 [&](const proof_reply& m) {
                   auto* w = e.mutable_proof_reply();
                   w->set_job_id(m.job_id);
                   for (const auto& p : m.partitions) {
                     auto* wp = w->add_partitions();
                     wp->set_proof_json(p.proof_json);
                     wp->set_public_json(p.public_json);
                     if (p.phases) put(*wp->mutable_phases(), *p.phases);
                   }
                 },
                 [&](const status_reply& m) {
                   auto* w = e.mutable_status_reply();
                   for (const auto& j : m.jobs) put(*w->add_jobs(), j);
                   for (const auto& s : m.slots) {
                     auto* ws = w->add_slots();
                     ws->set_index(s.index);
                     ws->set_class_index(s.class_index);
                     ws->set_state(static_cast<wire::SlotState>(s.state));
                     ws->set_generation(s.generation);
                     ws->set_owner(s.owner);
                   }
                   for (const auto& k : m.workers) {
                     auto* wk = w->add_workers();
                     wk->set_lease(k.lease);
                     wk->set_name(k.name);
                     wk->set_pid(k.pid);
                     wk->set_state(static_cast<wire::WorkerState>(k.state));
                     wk->set_heartbeat_age_ms(k.heartbeat_age_ms);
                   }
                   w->set_jobs_omitted(m.jobs_omitted);
                   for (const auto& g : m.gpus) proto::put(*w->add_gpus(), g);
                   w->set_hung_timeout_ms(m.hung_timeout_ms);
                   if (m.capacity) put(*w->mutable_capacity(), *m.capacity);
                   for (const auto& k : m.keys) {
                     auto* wk = w->add_keys();
                     wk->set_key_id(k.key_id);
                     wk->set_host_copy(k.host_copy);
                     wk->set_host_bytes(k.host_bytes);
                     wk->set_device_bytes(k.device_bytes);
                   }
                   if (m.cluster) put(*w->mutable_cluster(), *m.cluster);
                 },
                 [&](const error_reply& m) {
                   auto* w = e.mutable_error();
                   w->set_code(static_cast<wire::ErrorCode>(m.code));
                   w->set_message(m.message);
                   w->set_request_id(m.request_id);
                 },
                 [&](const ready& m) {
                   auto* w = e.mutable_ready();
                   w->set_lease(m.lease);
                   w->set_pid(m.pid);
                   w->set_name(m.name);
                   w->set_capacity(m.capacity);
                 },
                 [&](const assign& m) {
                   auto* w = e.mutable_assign();
                   w->set_slot(m.slot);
                   w->set_generation(m.generation);
                   w->set_job_index(m.job_index);
                   w->set_job_generation(m.job_generation);
                   w->set_partition(m.partition);
                   w->set_key_id(m.key_id);
                   w->set_spec(m.spec);
                 },
                 [&](const filled& m) {
                   auto* w = e.mutable_filled();
                   w->set_slot(m.slot);
                   w->set_generation(m.generation);
                   w->set_synth_ns(m.synth_ns);
                   w->set_n_constraints(m.n_constraints);
                   w->set_n_witness(m.n_witness);
                 },
                 [&](const synth_failed& m) {
                   auto* w = e.mutable_synth_failed();
                   w->set_slot(m.slot);
                   w->set_generation(m.generation);
                   w->set_error(m.error);
                 },
                 [&](const heartbeat& m) {
                   auto* w = e.mutable_heartbeat();
                   w->set_lease(m.lease);
                   w->set_slot(m.slot);
                   w->set_generation(m.generation);
                 },
                 [&](const bye& m) { e.mutable_bye()->set_lease(m.lease); },
                 [&](const abort_synthesis& m) {
                   auto* w = e.mutable_abort_synthesis();
                   w->set_slot(m.slot);
                   w->set_generation(m.generation);
                 },
                 [&](const synth_aborted& m) {
                   auto* w = e.mutable_synth_aborted();
                   w->set_slot(m.slot);
                   w->set_generation(m.generation);
                 },
             },
             b);
}

}  // namespace

std::vector<std::uint8_t> encode(const message& m) {
  wire::Envelope e;
  e.set_version(protocol_version);
  e.set_request_id(m.request_id);
  if (!m.on_behalf_of.empty()) e.set_on_behalf_of(m.on_behalf_of);
  put(e, m.body);
  std::vector<std::uint8_t> out(e.ByteSizeLong());
  e.SerializeWithCachedSizesToArray(out.data());
  return out;
}

message error_message(const decode_error& e) {
  return message{e.request_id, error_reply{e.code, e.reason, e.request_id}, {}};
}

}  // namespace cuzk::proto
