// check(): every field rule of docs/protocol.md, message by message. The
// first failing rule is the reason; fields are named Message.field[i].
#include <bit>

#include "proto/codec.hpp"
#include "proto/limits.hpp"
#include "proto/rules.hpp"

namespace cuzk::proto {

namespace {

#define CUZK_RULE(expr)              \
  do {                               \
    if (auto r_ = (expr)) return r_; \
  } while (0)

std::string at(std::string_view field, std::size_t i) { return std::string(field) + "[" + std::to_string(i) + "]"; }

rule_result fail(std::string field, std::string_view what) { return field + ": " + std::string(what); }

template <class E>
bool in_range(E v, E lo, E hi) {
  return static_cast<unsigned>(v) >= static_cast<unsigned>(lo) && static_cast<unsigned>(v) <= static_cast<unsigned>(hi);
}

rule_result check_partition_count(const std::string& field, std::size_t n) {
  if (n < 1 || n > max_partitions)
    return fail(field, std::to_string(n) + " partitions, expected 1.." + std::to_string(max_partitions));
  return std::nullopt;
}

rule_result check_lease(std::string_view field, std::uint32_t lease) {
  if (lease > max_lease) return fail(std::string(field), std::to_string(lease) + " is not a lease index");
  return std::nullopt;
}

/* An absolute path, or upload:ID naming the client's own upload. */
rule_result check_file_ref(std::string_view field, std::string_view v) {
  if (v.starts_with(upload_prefix)) return check_job_id(field, v.substr(upload_prefix.size()));
  return check_path(field, v);
}

rule_result check_body(const submit& m) {
  CUZK_RULE(check_job_id("Submit.job_id", m.job_id));
  CUZK_RULE(check_text("Submit.client", m.client, max_client_bytes));
  if (!in_range(m.priority, priority::high, priority::critical)) return fail("Submit.priority", "unknown");
  CUZK_RULE(check_partition_count("Submit.partitions", m.partitions));
  if (const auto* i = std::get_if<installed_work>(&m.work)) {
    if (!m.zkey.empty()) return fail("Submit.zkey", "set for an installed circuit (its key is the circuit's)");
    CUZK_RULE(check_token("Submit.installed.circuit", i->circuit, max_circuit_name_bytes));
    if (i->inputs_json.empty()) return fail("Submit.installed.inputs_json", "missing");
    CUZK_RULE(check_text("Submit.installed.inputs_json", i->inputs_json, max_circuit_inputs_bytes, true));
  } else {
    CUZK_RULE(check_key("Submit.zkey", m.zkey));
  }
  if (const auto* n = std::get_if<native_work>(&m.work)) {
    CUZK_RULE(check_token("Submit.native.circuit", n->circuit, max_circuit_bytes));
    if (n->inputs_json.empty()) return fail("Submit.native.inputs_json", "missing");
    CUZK_RULE(check_text("Submit.native.inputs_json", n->inputs_json, max_inputs_bytes, true));
  } else if (const auto* c = std::get_if<circom_work>(&m.work)) {
    CUZK_RULE(check_file_ref("Submit.circom.wtns", c->wtns));
    if (c->r1cs) CUZK_RULE(check_file_ref("Submit.circom.r1cs", *c->r1cs));
  }
  if (m.blinding) {
    CUZK_RULE(check_decimal("Submit.blinding.r", m.blinding->r));
    CUZK_RULE(check_decimal("Submit.blinding.s", m.blinding->s));
  }
  return std::nullopt;
}

rule_result check_body(const status_request& m) {
  if (m.job_id) CUZK_RULE(check_job_id("StatusRequest.job_id", *m.job_id));
  if (m.owner_uid && !m.job_id) return fail("StatusRequest.owner_uid", "set without a job_id");
  if (m.capacity_only && m.job_id) return fail("StatusRequest.capacity_only", "set with a job_id");
  if (m.cluster && (m.job_id || m.capacity_only))
    return fail("StatusRequest.cluster", "set with a job_id or capacity_only");
  return std::nullopt;
}
rule_result check_body(const upload& m) {
  CUZK_RULE(check_job_id("Upload.upload_id", m.upload_id));
  if (!in_range(m.kind, upload_kind::wtns, upload_kind::r1cs)) return fail("Upload.kind", "unknown");
  if (m.size == 0 || m.size > max_upload_bytes)
    return fail("Upload.size", std::to_string(m.size) + ", expected 1.." + std::to_string(max_upload_bytes));
  if (m.data.empty() || m.data.size() > max_upload_chunk_bytes)
    return fail("Upload.data",
                std::to_string(m.data.size()) + " bytes, expected 1.." + std::to_string(max_upload_chunk_bytes));
  if (m.offset >= m.size || m.data.size() > m.size - m.offset)
    return fail("Upload.offset", std::to_string(m.offset) + " + " + std::to_string(m.data.size()) +
                                     " bytes pass the size " + std::to_string(m.size));
  if (m.kind == upload_kind::wtns && m.offset == 0)
    CUZK_RULE(check_key("Upload.zkey", m.zkey));
  else if (!m.zkey.empty())
    CUZK_RULE(check_key("Upload.zkey", m.zkey));
  return std::nullopt;
}
rule_result check_body(const upload_ack& m) { return check_job_id("UploadAck.upload_id", m.upload_id); }
rule_result check_body(const fetch& m) { return check_job_id("Fetch.job_id", m.job_id); }
rule_result check_body(const cancel_request& m) { return check_job_id("Cancel.job_id", m.job_id); }
rule_result check_body(const wait_request& m) {
  CUZK_RULE(check_job_id("Wait.job_id", m.job_id));
  if (m.timeout_ms > max_wait_ms)
    return fail("Wait.timeout_ms", std::to_string(m.timeout_ms) + ", at most " + std::to_string(max_wait_ms));
  return std::nullopt;
}

rule_result check_body(const accepted& m) {
  CUZK_RULE(check_job_id("Accepted.job_id", m.job_id));
  if (!in_range(m.state, job_state::queued, job_state::failed)) return fail("Accepted.state", "unknown");
  return std::nullopt;
}

rule_result check_partition_status(const std::string& f, const partition_status& p) {
  if (!in_range(p.state, partition_state::queued, partition_state::failed)) return fail(f + ".state", "unknown");
  if (p.gpu < -1 || p.gpu >= static_cast<std::int32_t>(max_gpus))
    return fail(f + ".gpu", std::to_string(p.gpu) + ", expected -1.." + std::to_string(max_gpus - 1));
  return std::nullopt;
}

rule_result check_job_status(const std::string& f, const job_status& m) {
  CUZK_RULE(check_job_id(f + ".job_id", m.job_id));
  if (!in_range(m.state, job_state::queued, job_state::failed)) return fail(f + ".state", "unknown");
  CUZK_RULE(check_text(f + ".error", m.error, max_error_bytes, true));
  if (!in_range(m.priority, priority::high, priority::critical)) return fail(f + ".priority", "unknown");
  CUZK_RULE(check_text(f + ".client", m.client, max_client_bytes));
  if (!curves::valid_curve_id(static_cast<std::uint8_t>(m.curve))) return fail(f + ".curve", "unknown");
  CUZK_RULE(check_partition_count(f + ".partitions", m.partitions.size()));
  for (std::size_t i = 0; i < m.partitions.size(); ++i)
    CUZK_RULE(check_partition_status(at(f + ".partitions", i), m.partitions[i]));
  return std::nullopt;
}

rule_result check_gpu(const std::string& f, const gpu_status& g) {
  if (g.device < 0 || g.device >= static_cast<std::int32_t>(max_gpus))
    return fail(f + ".device", std::to_string(g.device) + ", expected 0.." + std::to_string(max_gpus - 1));
  CUZK_RULE(check_text(f + ".name", g.name, max_gpu_name_bytes));
  if (!(g.busy_ratio >= 0 && g.busy_ratio <= 1)) return fail(f + ".busy_ratio", "not in 0..1");
  if (g.mem_free > g.mem_total) return fail(f + ".mem_free", "more than mem_total");
  if (g.resident_keys.size() > max_resident_keys)
    return fail(f + ".resident_keys",
                std::to_string(g.resident_keys.size()) + " keys, at most " + std::to_string(max_resident_keys));
  for (std::size_t i = 0; i < g.resident_keys.size(); ++i)
    CUZK_RULE(check_token(at(f + ".resident_keys", i), g.resident_keys[i], max_key_id_bytes));
  if (g.resident_shifts.size() > g.resident_keys.size())
    return fail(f + ".resident_shifts", std::to_string(g.resident_shifts.size()) + " entries for " +
                                            std::to_string(g.resident_keys.size()) + " resident keys");
  for (std::size_t i = 0; i < g.resident_shifts.size(); ++i)
    CUZK_RULE(check_text(at(f + ".resident_shifts", i), g.resident_shifts[i], max_shifts_text_bytes));
  if (g.shifted_bytes > g.resident_bytes) return fail(f + ".shifted_bytes", "more than resident_bytes");
  return std::nullopt;
}
rule_result check_capacity(const std::string& f, const capacity& c) {
  if (c.keys.size() > max_capacity_keys)
    return fail(f + ".keys", std::to_string(c.keys.size()) + " entries, at most " + std::to_string(max_capacity_keys));
  for (std::size_t i = 0; i < c.keys.size(); ++i) {
    const auto& k = c.keys[i];
    if (!k.key_id.empty()) CUZK_RULE(check_token(at(f + ".keys", i) + ".key_id", k.key_id, max_key_id_bytes));
    if (!in_range(k.priority, priority::high, priority::critical))
      return fail(at(f + ".keys", i) + ".priority", "unknown");
  }
  if (c.classes.size() > max_capacity_classes)
    return fail(f + ".classes",
                std::to_string(c.classes.size()) + " classes, at most " + std::to_string(max_capacity_classes));
  for (std::size_t i = 0; i < c.classes.size(); ++i)
    if (c.classes[i].free > c.classes[i].slots) return fail(at(f + ".classes", i) + ".free", "more than slots");
  if (c.circuits.size() > max_capacity_circuits)
    return fail(f + ".circuits",
                std::to_string(c.circuits.size()) + " circuits, at most " + std::to_string(max_capacity_circuits));
  for (std::size_t i = 0; i < c.circuits.size(); ++i) {
    const auto& k = c.circuits[i];
    CUZK_RULE(check_token(at(f + ".circuits", i) + ".name", k.name, max_circuit_name_bytes));
    if (k.generator != "cpp" && k.generator != "wasm") return fail(at(f + ".circuits", i) + ".generator", "unknown");
    CUZK_RULE(check_token(at(f + ".circuits", i) + ".key_id", k.key_id, max_key_id_bytes));
  }
  if (!(c.partitions_per_minute >= 0) || !(c.estimated_wait_s >= 0))
    return fail(f, "a negative or undefined rate or wait");
  return check_text(f + ".refusal", c.refusal, max_error_bytes, true);
}

rule_result check_cluster(const std::string& f, const cluster_view& c) {
  CUZK_RULE(check_text(f + ".node", c.node, max_node_name_bytes));
  CUZK_RULE(check_text(f + ".database_error", c.database_error, max_error_bytes, true));
  if (c.nodes.size() > max_cluster_nodes)
    return fail(f + ".nodes", std::to_string(c.nodes.size()) + " nodes, at most " + std::to_string(max_cluster_nodes));
  for (std::size_t i = 0; i < c.nodes.size(); ++i) {
    const auto& n = c.nodes[i];
    CUZK_RULE(check_text(at(f + ".nodes", i) + ".name", n.name, max_node_name_bytes));
    if (n.key_ids.size() > max_cluster_node_keys)
      return fail(at(f + ".nodes", i) + ".key_ids",
                  std::to_string(n.key_ids.size()) + " keys, at most " + std::to_string(max_cluster_node_keys));
    for (std::size_t k = 0; k < n.key_ids.size(); ++k)
      CUZK_RULE(check_token(at(at(f + ".nodes", i) + ".key_ids", k), n.key_ids[k], max_key_id_bytes));
  }
  return std::nullopt;
}

rule_result check_body(const job_status& m) { return check_job_status("JobStatus", m); }

rule_result check_body(const proof_reply& m) {
  CUZK_RULE(check_job_id("ProofReply.job_id", m.job_id));
  CUZK_RULE(check_partition_count("ProofReply.partitions", m.partitions.size()));
  for (std::size_t i = 0; i < m.partitions.size(); ++i) {
    const auto f = at("ProofReply.partitions", i);
    const auto& p = m.partitions[i];
    if (p.proof_json.empty()) return fail(f + ".proof_json", "missing");
    if (p.public_json.empty()) return fail(f + ".public_json", "missing");
    CUZK_RULE(check_text(f + ".proof_json", p.proof_json, max_proof_json_bytes, true));
    CUZK_RULE(check_text(f + ".public_json", p.public_json, max_proof_json_bytes, true));
    if (p.phases) CUZK_RULE(check_partition_status(f + ".phases", *p.phases));
  }
  return std::nullopt;
}

rule_result check_body(const status_reply& m) {
  for (std::size_t i = 0; i < m.jobs.size(); ++i) CUZK_RULE(check_job_status(at("StatusReply.jobs", i), m.jobs[i]));
  for (std::size_t i = 0; i < m.slots.size(); ++i) {
    const auto& s = m.slots[i];
    if (!in_range(s.state, slot_state::free, slot_state::proving))
      return fail(at("StatusReply.slots", i) + ".state", "unknown");
    if (s.owner > no_owner) return fail(at("StatusReply.slots", i) + ".owner", "not a lease index");
  }
  for (std::size_t i = 0; i < m.workers.size(); ++i) {
    const auto f = at("StatusReply.workers", i);
    const auto& w = m.workers[i];
    CUZK_RULE(check_lease(f + ".lease", w.lease));
    CUZK_RULE(check_text(f + ".name", w.name, max_worker_name_bytes));
    if (!in_range(w.state, worker_state::idle, worker_state::hung)) return fail(f + ".state", "unknown");
  }
  if (m.gpus.size() > max_gpus)
    return fail("StatusReply.gpus", std::to_string(m.gpus.size()) + " GPUs, at most " + std::to_string(max_gpus));
  for (std::size_t i = 0; i < m.gpus.size(); ++i) CUZK_RULE(check_gpu(at("StatusReply.gpus", i), m.gpus[i]));
  if (m.keys.size() > max_resident_keys)
    return fail("StatusReply.keys",
                std::to_string(m.keys.size()) + " keys, at most " + std::to_string(max_resident_keys));
  for (std::size_t i = 0; i < m.keys.size(); ++i) {
    CUZK_RULE(check_token(at("StatusReply.keys", i) + ".key_id", m.keys[i].key_id, max_key_id_bytes));
    if (m.keys[i].host_copy != "keep" && m.keys[i].host_copy != "drop")
      return fail(at("StatusReply.keys", i) + ".host_copy", "neither keep nor drop");
  }
  if (m.capacity) CUZK_RULE(check_capacity("StatusReply.capacity", *m.capacity));
  if (m.cluster) CUZK_RULE(check_cluster("StatusReply.cluster", *m.cluster));
  return std::nullopt;
}

rule_result check_body(const error_reply& m) {
  if (!in_range(m.code, error_code::malformed, error_code::busy)) return fail("Error.code", "unknown");
  return check_text("Error.message", m.message, max_error_bytes, true);
}

rule_result check_body(const ready& m) {
  CUZK_RULE(check_lease("Ready.lease", m.lease));
  if (m.pid <= 0) return fail("Ready.pid", "missing");
  CUZK_RULE(check_token("Ready.name", m.name, max_worker_name_bytes));
  if (!std::has_single_bit(m.capacity)) return fail("Ready.capacity", "not a power of two");
  return std::nullopt;
}

rule_result check_body(const assign& m) {
  if (m.partition >= max_partitions) return fail("Assign.partition", std::to_string(m.partition) + " out of range");
  CUZK_RULE(check_token("Assign.key_id", m.key_id, max_key_id_bytes, true));
  if (m.spec.empty()) return fail("Assign.spec", "missing");
  return check_text("Assign.spec", m.spec, max_spec_bytes, true);
}

rule_result check_body(const filled&) { return std::nullopt; }
rule_result check_body(const synth_failed& m) {
  if (m.error.empty()) return fail("SynthFailed.error", "missing");
  return check_text("SynthFailed.error", m.error, max_error_bytes, true);
}
rule_result check_body(const heartbeat& m) { return check_lease("Heartbeat.lease", m.lease); }
rule_result check_body(const bye& m) { return check_lease("Bye.lease", m.lease); }
rule_result check_body(const abort_synthesis&) { return std::nullopt; }
rule_result check_body(const synth_aborted&) { return std::nullopt; }

#undef CUZK_RULE

}  // namespace

std::optional<std::string> check(const message& m) {
  return std::visit([](const auto& b) { return check_body(b); }, m.body);
}

}  // namespace cuzk::proto
