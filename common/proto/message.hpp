// The control protocol's messages as plain C++ values (schema: cuzk.proto,
// rules: docs/protocol.md). The generated protobuf classes stay inside the
// codec; the server, workers and clients see only these structs, which
// decode() has already validated.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "curves/curve_id.hpp"
#include "groth16/phase_timings.hpp"
#include "proto/limits.hpp"
#include "util/priority.hpp"

namespace cuzk::proto {

using cuzk::priority;  // util/priority.hpp; the wire's Priority numbers it otherwise (wire_map.hpp)
/* The numbering of the wire enums (cuzk.proto); 0 is never valid. */
enum class job_state : std::uint8_t { queued = 1, running = 2, done = 3, failed = 4 };
enum class partition_state : std::uint8_t {
  queued = 1,
  synthesizing = 2,
  synthesized = 3,
  proving = 4,
  done = 5,
  failed = 6
};
enum class slot_state : std::uint8_t { free = 1, assigned = 2, filled = 3, proving = 4 };
enum class worker_state : std::uint8_t { idle = 1, busy = 2, hung = 3 };
enum class error_code : std::uint8_t {
  malformed = 1,
  unsupported_version = 2,
  unknown_message = 3,
  too_large = 4,
  unknown_job = 5,
  bad_request = 6,
  unknown_circuit = 7,
  internal = 8,
  conflict = 9,
  table_full = 10,
  unavailable = 11,
  busy = 12,  // a limit was reached (job table, per-client jobs or waits, preparations): retry later
};

// ---- client → server ----

struct native_work {
  std::string circuit;  // "chain:size=1024"
  std::string inputs_json;
  friend bool operator==(const native_work&, const native_work&) = default;
};
struct circom_work {
  std::string wtns;                 // absolute path
  std::optional<std::string> r1cs;  // absolute path
  friend bool operator==(const circom_work&, const circom_work&) = default;
};
/* An installed circom circuit (cuzk circuit install) and its input JSON: the witness is computed by a worker. */
struct installed_work {
  std::string circuit;  // its name in the pool
  std::string inputs_json;
  friend bool operator==(const installed_work&, const installed_work&) = default;
};
struct blinding {
  std::string r, s;  // decimal
  friend bool operator==(const blinding&, const blinding&) = default;
};

struct submit {
  std::string job_id;
  std::string client;
  proto::priority priority = priority::normal;
  std::uint32_t partitions = 1;
  std::string zkey;  // absolute path or key id; empty for an installed circuit (its key is the circuit's)
  std::variant<native_work, circom_work, installed_work> work;
  std::optional<proto::blinding> blinding;
  friend bool operator==(const submit&, const submit&) = default;
};
/* owner_uid: whose job the id names; nullopt: the sender's own, or (an
   operator) the only uid with that id. */
struct status_request {
  std::optional<std::string> job_id;  // nullopt: the whole service
  std::optional<std::uint32_t> owner_uid = std::nullopt;
  bool capacity_only = false;  // without job_id: only the capacity (cheap)
  bool cluster = false;        // without job_id: only the cluster's nodes (a cluster node's view)
  friend bool operator==(const status_request&, const status_request&) = default;
};
enum class upload_kind : std::uint8_t { wtns = 1, r1cs = 2 };
/* One chunk of a file streamed into the server's spool; a Submit names it upload:ID. */
struct upload {
  std::string upload_id;
  upload_kind kind = upload_kind::wtns;
  std::uint64_t size = 0, offset = 0;
  std::string data;
  std::string zkey;  // offset 0 of a witness: the key id it is for
  friend bool operator==(const upload&, const upload&) = default;
};
/* A Submit's witness or constraint system that names an upload: "upload:ID". */
inline constexpr std::string_view upload_prefix = "upload:";
struct fetch {
  std::string job_id;
  std::optional<std::uint32_t> owner_uid = std::nullopt;
  friend bool operator==(const fetch&, const fetch&) = default;
};
struct cancel_request {
  std::string job_id;
  std::optional<std::uint32_t> owner_uid = std::nullopt;
  friend bool operator==(const cancel_request&, const cancel_request&) = default;
};
struct wait_request {
  std::string job_id;
  std::uint32_t timeout_ms = 0;
  std::optional<std::uint32_t> owner_uid = std::nullopt;
  friend bool operator==(const wait_request&, const wait_request&) = default;
};

// ---- server → client ----

struct upload_ack {
  std::string upload_id;
  std::uint64_t received = 0;
  friend bool operator==(const upload_ack&, const upload_ack&) = default;
};
struct accepted {
  std::string job_id;
  bool created = false;  // false: idempotent resubmit of a known job id
  job_state state = job_state::queued;
  friend bool operator==(const accepted&, const accepted&) = default;
};
using partition_timings = groth16::phase_timings;  // PartitionTimings: field i + 1 is timing i, <name>_us
struct partition_status {
  partition_state state = partition_state::queued;
  std::uint64_t synth_start_ns = 0, synth_end_ns = 0, prove_start_ns = 0, prove_end_ns = 0;
  std::uint32_t syntheses = 0, attempts = 0;
  std::optional<partition_timings> timings;  // of the stored proof (DONE)
  std::int32_t gpu = -1;                     // -1: the CPU, or not proven
  std::uint64_t witness_us = 0;              // of the synthesis, an installed circuit's generator's
  friend bool operator==(const partition_status&, const partition_status&) = default;
};
struct job_status {
  std::string job_id;
  job_state state = job_state::queued;
  std::string error;
  std::uint64_t submitted_ns = 0, finished_ns = 0;
  proto::priority priority = priority::normal;
  std::string client;
  std::vector<partition_status> partitions;              // 1..16
  curves::curve_id curve = curves::curve_id::bls12_381;  // its key's
  friend bool operator==(const job_status&, const job_status&) = default;
};
struct partition_proof {
  std::string proof_json, public_json;     // snarkjs JSON text
  std::optional<partition_status> phases;  // where its time went (absent from a cluster's stored proofs)
  friend bool operator==(const partition_proof&, const partition_proof&) = default;
};
struct proof_reply {
  std::string job_id;
  std::vector<partition_proof> partitions;  // 1..16
  friend bool operator==(const proof_reply&, const proof_reply&) = default;
};
struct slot_status {
  std::uint64_t index = 0;
  std::uint32_t class_index = 0;
  slot_state state = slot_state::free;
  std::uint64_t generation = 0;
  std::uint32_t owner = 0;  // lease index, no_owner when none
  friend bool operator==(const slot_status&, const slot_status&) = default;
};
struct worker_status {
  std::uint32_t lease = 0;
  std::string name;
  std::int32_t pid = 0;
  worker_state state = worker_state::idle;
  std::uint64_t heartbeat_age_ms = 0;
  friend bool operator==(const worker_status&, const worker_status&) = default;
};
/* One GPU: what the backend reports (prover_backend::gpus), admin/gpu_report fits within the rules and
   StatusReply.gpus carries (wire_map.cpp). A new status field is one line here, one in GpuStatus, and one in
   each direction of wire_map.cpp. */
struct gpu_status {
  std::int32_t device = 0;                    // CUDA ordinal
  std::string name;                           // "NVIDIA H200"
  std::uint32_t workers = 0;                  // proving workers on it
  double busy_ratio = 0;                      // time with a kernel running / wall time, over the last minute: 0..1
  std::uint64_t mem_total = 0, mem_free = 0;  // bytes, cudaMemGetInfo
  std::uint64_t budget = 0;                   // bytes keys and buffers may use (total minus the reserve)
  std::vector<std::string> resident_keys;     // key ids whose bases are on the device, most recent first (operators)
  std::uint64_t resident_bytes = 0, proofs = 0, faults = 0;
  std::vector<std::string> resident_shifts;  // each resident key's shifted copies, "h 11@22 ... b2 5@22" (operators)
  std::uint64_t shifted_bytes = 0;           // of resident_bytes, the shifted copies' points
  // The server's own (metrics, key memory), not on the wire:
  double busy_seconds = 0;  // busy time since the server started (a counter: its rate over any window)
  std::vector<std::uint64_t> resident_key_bytes;  // each resident key's device bytes (bases, copies, temporaries)
  friend bool operator==(const gpu_status&, const gpu_status&) = default;
};
struct key_memory {
  std::string key_id;
  std::string host_copy;  // "keep" or "drop"
  std::uint64_t host_bytes = 0, device_bytes = 0;
  friend bool operator==(const key_memory&, const key_memory&) = default;
};
struct key_load {
  std::string key_id;  // empty: other clients' keys
  proto::priority priority = priority::normal;
  std::uint32_t queued = 0, running = 0;
  friend bool operator==(const key_load&, const key_load&) = default;
};
struct class_capacity {
  std::uint32_t class_index = 0;
  std::uint64_t domain = 0, witness = 0;
  std::uint32_t slots = 0, free = 0;
  friend bool operator==(const class_capacity&, const class_capacity&) = default;
};
/* A circom circuit installed in the node's pool (cuzk circuit install): what a client names in Submit.Installed. */
struct installed_circuit {
  std::string name;
  std::string generator;  // "cpp" or "wasm"
  std::string key_id;
  friend bool operator==(const installed_circuit&, const installed_circuit&) = default;
};
struct capacity {
  std::vector<key_load> keys;
  std::vector<class_capacity> classes;
  double partitions_per_minute = 0, estimated_wait_s = 0;
  bool accepting = false;
  std::string refusal;
  std::uint32_t jobs_held = 0, jobs_limit = 0;
  std::vector<installed_circuit> circuits;  // by name
  friend bool operator==(const capacity&, const capacity&) = default;
};
/* A node of the cluster as the database knows it. */
struct cluster_node_status {
  std::string name;
  bool alive = false;                  // its heartbeat is within the answering node's dead-node timeout
  std::uint64_t heartbeat_age_ms = 0;  // by the database's clock
  std::uint32_t claims = 0;            // jobs it holds claimed
  std::uint32_t keys = 0;              // keys it said it holds
  std::vector<std::string> key_ids;    // those keys (operators only)
  friend bool operator==(const cluster_node_status&, const cluster_node_status&) = default;
};
struct cluster_view {
  std::string node;  // the answering node's name
  bool database_up = false;
  std::string database_error;  // why not (libpq's words, never the password)
  std::uint64_t dead_after_ms = 0;
  std::vector<cluster_node_status> nodes;
  std::uint32_t queued = 0;  // jobs waiting for a node in the whole cluster
  friend bool operator==(const cluster_view&, const cluster_view&) = default;
};
struct status_reply {
  std::vector<job_status> jobs;  // newest first
  std::vector<slot_status> slots;
  std::vector<worker_status> workers;
  std::uint32_t jobs_omitted = 0;
  std::vector<gpu_status> gpus;
  std::uint32_t hung_timeout_ms = 0;
  std::optional<proto::capacity> capacity;
  std::vector<key_memory> keys;                        // operators only
  std::optional<cluster_view> cluster = std::nullopt;  // asked with status_request::cluster
  friend bool operator==(const status_reply&, const status_reply&) = default;
};
struct error_reply {
  error_code code = error_code::internal;
  std::string message;
  std::uint64_t request_id = 0;
  friend bool operator==(const error_reply&, const error_reply&) = default;
};

// ---- worker ↔ server ----

struct ready {
  std::uint32_t lease = 0;
  std::int32_t pid = 0;
  std::string name;
  std::uint64_t capacity = 0;  // largest NTT domain, a power of two
  friend bool operator==(const ready&, const ready&) = default;
};
struct assign {
  std::uint64_t slot = 0, generation = 0;
  std::uint64_t job_index = 0, job_generation = 0;
  std::uint32_t partition = 0;
  std::string key_id;
  std::string spec;  // job spec JSON
  friend bool operator==(const assign&, const assign&) = default;
};
struct filled {
  std::uint64_t slot = 0, generation = 0;
  std::uint64_t synth_ns = 0, n_constraints = 0, n_witness = 0;
  friend bool operator==(const filled&, const filled&) = default;
};
struct synth_failed {
  std::uint64_t slot = 0, generation = 0;
  std::string error;
  friend bool operator==(const synth_failed&, const synth_failed&) = default;
};
struct heartbeat {
  std::uint32_t lease = 0;
  std::uint64_t slot = 0, generation = 0;
  friend bool operator==(const heartbeat&, const heartbeat&) = default;
};
struct bye {
  std::uint32_t lease = 0;
  friend bool operator==(const bye&, const bye&) = default;
};
struct abort_synthesis {
  std::uint64_t slot = 0, generation = 0;
  friend bool operator==(const abort_synthesis&, const abort_synthesis&) = default;
};
struct synth_aborted {
  std::uint64_t slot = 0, generation = 0;
  friend bool operator==(const synth_aborted&, const synth_aborted&) = default;
};

using body = std::variant<submit, status_request, fetch, wait_request, upload,                                  //
                          accepted, job_status, proof_reply, status_reply, error_reply, upload_ack,             //
                          ready, assign, filled, synth_failed, heartbeat, bye, abort_synthesis, synth_aborted,  //
                          cancel_request>;

/* The requests a client sends (not a worker's messages, not replies). */
template <class T>
inline constexpr bool is_client_request_v =
    std::is_same_v<T, submit> || std::is_same_v<T, status_request> || std::is_same_v<T, fetch> ||
    std::is_same_v<T, wait_request> || std::is_same_v<T, upload> || std::is_same_v<T, cancel_request>;
inline bool is_client_request(const body& b) {
  return std::visit([](const auto& m) { return is_client_request_v<std::decay_t<decltype(m)>>; }, b);
}

/* One Envelope. The version is not a field: decode() accepts only
   protocol_version and encode() always writes it. */
struct message {
  std::uint64_t request_id = 0;
  proto::body body;
  std::string on_behalf_of = {};  // a gateway's API key name ("" = the connection's own identity)
  friend bool operator==(const message&, const message&) = default;
};

}  // namespace cuzk::proto
