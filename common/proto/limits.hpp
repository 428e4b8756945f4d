// The numbers the decoder enforces (docs/protocol.md, "Validation"). They
// follow the job table's record sizes (shm/layout.hpp) so that whatever the
// decoder accepts also fits the region.
#pragma once

#include <cstddef>
#include <cstdint>

namespace cuzk::proto {

inline constexpr std::uint32_t protocol_version = 1;

/* Frames above this get ERROR_CODE_TOO_LARGE. Sized for the largest reply: 16
   partitions of snarkjs proof + public JSON (the job table's 2 KiB binary
   result per partition is up to ~6 KiB of JSON text). */
inline constexpr std::size_t max_frame_bytes = 256 * 1024;
/* libzmq drops (and disconnects) peers whose messages exceed this, before
   they are ever buffered whole; between the two limits the decoder answers. */
inline constexpr std::size_t zmq_max_message_bytes = 4 * max_frame_bytes;

inline constexpr std::size_t max_job_id_bytes = 63;       // shm::job_id_bytes - 1 (NUL padded)
inline constexpr std::size_t max_client_bytes = 63;       // shm::client_bytes - 1
inline constexpr std::size_t max_key_id_bytes = 63;       // job_record::key_id - 1
inline constexpr std::size_t max_worker_name_bytes = 23;  // lease_entry::name - 1
inline constexpr std::size_t max_path_bytes = 1023;
inline constexpr std::size_t max_circuit_bytes = 256;
inline constexpr std::size_t max_spec_bytes = 2048;  // shm::spec_bytes
inline constexpr std::size_t max_inputs_bytes = max_spec_bytes;
inline constexpr std::size_t max_circuit_name_bytes = 64;  // job::is_circuit_name
inline constexpr std::size_t max_circuit_inputs_bytes =
    192 * 1024;                                        // an installed circom circuit's inputs, in one frame
inline constexpr std::size_t max_decimal_digits = 78;  // Fr < 2^255 has ≤ 77 digits
inline constexpr std::size_t max_error_bytes = 1024;
inline constexpr std::size_t max_proof_json_bytes = 16 * 1024;
inline constexpr std::uint32_t max_partitions = 16;  // shm::max_partitions
inline constexpr std::uint32_t max_wait_ms = 600'000;
inline constexpr std::uint32_t max_lease = 0xffe;  // shm::max_leases - 1
inline constexpr std::uint32_t no_owner = 0xfff;   // shm::no_lease
inline constexpr std::size_t max_gpus = 64;        // StatusReply.gpus; device ordinals 0..63
inline constexpr std::size_t max_gpu_name_bytes = 255;
inline constexpr std::size_t max_shifts_text_bytes = 80;  // gpu_status::resident_shifts, a key's
inline constexpr std::size_t max_capacity_keys = 192;     // Capacity.keys: (key, priority) entries
inline constexpr std::size_t max_capacity_circuits = 64;  // Capacity.circuits
inline constexpr std::size_t max_capacity_classes = 8;    // Capacity.classes: the pool's slot classes
inline constexpr std::size_t max_resident_keys = 256;     // per GpuStatus
inline constexpr std::size_t max_cluster_nodes = 64;      // StatusReply.cluster.nodes (a larger cluster: the first 64)
inline constexpr std::size_t max_cluster_node_keys = 32;  // ClusterNode.key_ids
inline constexpr std::size_t max_node_name_bytes = 63;    // ClusterNode.name, ClusterView.node
inline constexpr std::size_t max_upload_chunk_bytes = 128 * 1024;  // Upload.data
inline constexpr std::uint64_t max_upload_bytes = 1ULL << 40;      // Upload.size (a server's quota is smaller)

}  // namespace cuzk::proto
