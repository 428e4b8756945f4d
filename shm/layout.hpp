// The bytes of a pool region (DESIGN §3). Every process maps the region at
// its own address, so everything here is an offset from the region's base,
// fixed-size and trivially copyable; shared state changes only by CAS on the
// std::atomic<std::uint64_t> words (lock-free, address-free on Linux).
//
//   0                 region_header (4 KiB)
//   lease_offset      lease_entry[lease_capacity]
//   slot_offset       slot_entry[n_slots]          (state word + meta)
//   job_offset        job_record[job_capacity]
//   payload_offset    slot payloads, class by class, each 2 MiB aligned:
//                     a, b, c (domain × 32 B each), then z (witness × 32 B)
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <type_traits>

#include "groth16/phase_timings.hpp"
#include "util/priority.hpp"

namespace cuzk::shm {

inline constexpr std::uint64_t region_magic = 0x4c4f4f504b5a5543ULL;  // "CUZKPOOL" little-endian
// 2: job records carry their owner uid, request digest and fetched flag; 3: partitions carry their proof's
// phase timings and GPU, the header the server's hung timeout; 4: job records and slots carry their key's
// curve, results hold the proof in snarkjs's LEM layout of that curve
inline constexpr std::uint32_t layout_version = 4;
inline constexpr std::uint64_t payload_alignment = 2ULL << 20;  // 2 MiB: huge-page and register friendly
inline constexpr std::uint32_t max_slot_classes = 8;
inline constexpr std::uint32_t max_partitions = 16;
inline constexpr std::uint32_t no_lease = 0xfff;  // owner field of an unowned slot
inline constexpr std::uint32_t max_leases = 0xfff;

/* Byte offsets in the lock file beside the region ("NAME.lock"); each is one
   fcntl (open file description) write lock the OS drops when its holder dies. */
inline constexpr std::uint64_t lock_byte_create = 0;
inline constexpr std::uint64_t lock_byte_cleaner = 1;
inline constexpr std::uint64_t lock_byte_server = 2;
inline constexpr std::uint64_t lock_byte_lease0 = 64;  // lease i: byte 64 + i

enum class role : std::uint32_t { none = 0, server = 1, worker = 2, tool = 3, client = 4 };

struct slot_class {
  std::uint64_t count;           // slots of this class
  std::uint64_t domain;          // a, b, c capacity in field elements (a power of two)
  std::uint64_t witness;         // z capacity in field elements
  std::uint64_t slot_bytes;      // 3·domain·32 + witness·32 rounded up to payload_alignment
  std::uint64_t first_slot;      // index of the class's first slot
  std::uint64_t payload_offset;  // offset of the class's first payload
};
static_assert(std::is_trivially_copyable_v<slot_class>);

struct region_header {
  std::atomic<std::uint64_t> magic;  // stored last (release) by the creator
  std::uint32_t version;
  std::uint32_t header_bytes;
  std::uint64_t total_bytes;
  std::uint64_t layout_hash;  // FNV-1a over version, classes, capacities
  std::uint64_t created_unix_ns;
  std::atomic<std::uint64_t> epoch;  // +1 at every gpu-server start
  std::uint32_t n_classes;
  std::uint32_t lease_capacity;
  std::uint64_t n_slots;
  std::uint64_t job_capacity;
  std::uint64_t lease_offset, slot_offset, job_offset, payload_offset;
  std::uint32_t hugepages;                     // 1 when backed by a hugetlbfs file
  std::atomic<std::uint32_t> hung_timeout_ms;  // the running server's --hung-timeout (0: none has said)
  std::atomic<std::uint64_t> job_seq;          // next job-record generation / submission order
  slot_class classes[max_slot_classes];
};

/* lease word: state (bits 0..3: 0 free, 1 active) | incarnation (bits 4..63). */
struct lease_word {
  bool active;
  std::uint64_t incarnation;

  static constexpr lease_word unpack(std::uint64_t w) noexcept { return {(w & 0xf) != 0, w >> 4}; }
  constexpr std::uint64_t pack() const noexcept { return (active ? 1 : 0) | (incarnation << 4); }
};

struct alignas(64) lease_entry {
  std::atomic<std::uint64_t> word;
  std::uint32_t role;
  std::int32_t pid;
  std::uint64_t start_time;                 // field 22 of /proc/PID/stat (clock ticks since boot)
  std::uint64_t epoch;                      // region epoch when taken
  std::atomic<std::uint64_t> heartbeat_ns;  // CLOCK_REALTIME
  char name[24];                            // "worker@3", "gpu-server", ...
};
static_assert(sizeof(lease_entry) == 64);

/* Slot state word: state (bits 0..3) | owner lease (bits 4..15) | generation
   (bits 16..63). Transitions (DESIGN §3):
     FREE → ASSIGNED (server, owner = worker) → FILLED (worker) → PROVING
     (server, owner = server) → FREE (gen + 1, after the proof is stored);
     reclaim: ASSIGNED of a dead owner → FREE (gen + 1); PROVING of a dead
     owner → FILLED. */
enum class slot_state : std::uint8_t { free = 0, assigned = 1, filled = 2, proving = 3 };

struct slot_word {
  slot_state state;
  std::uint32_t owner;
  std::uint64_t generation;

  static constexpr slot_word unpack(std::uint64_t w) noexcept {
    return {static_cast<slot_state>(w & 0xf), static_cast<std::uint32_t>((w >> 4) & 0xfff), w >> 16};
  }
  constexpr std::uint64_t pack() const noexcept {
    return static_cast<std::uint64_t>(state) | (static_cast<std::uint64_t>(owner & 0xfff) << 4) | (generation << 16);
  }
  friend constexpr bool operator==(const slot_word&, const slot_word&) = default;
};

/* Per-slot metadata beside the word. The binding (job, partition) is written
   by the server before FREE → ASSIGNED; sizes and checksum by the worker
   before ASSIGNED → FILLED (release). */
struct alignas(64) slot_entry {
  std::atomic<std::uint64_t> word;
  std::uint32_t class_index;
  std::uint32_t partition;
  std::uint64_t job;             // job record index
  std::uint64_t job_generation;  // the record's generation when bound
  std::uint64_t n_constraints;   // rows of a, b, c written (domain padding is zero)
  std::uint64_t domain;          // NTT domain the rows are padded to
  std::uint64_t n_witness;       // elements of z written
  std::uint64_t checksum;        // XXH3-64 of the written payload bytes, 0 = none
  std::uint64_t assigned_ns, filled_ns, proving_ns;
  std::uint64_t synth_ns;    // worker-reported synthesis time
  std::uint64_t curve;       // the curve (curves::curve_id) of the elements written: the job's key's
  std::uint64_t witness_ns;  // of synth_ns, an installed circuit's witness generator's (0: none ran)
  std::uint64_t reserved[2];
};
static_assert(sizeof(slot_entry) == 128);

/* Job record word: state (bits 0..3) | generation (bits 4..63). Partition
   word: state (bits 0..3) | slot index (bits 4..31) | attempts (bits 32..63). */
enum class job_state : std::uint8_t { free = 0, reserved = 1, active = 2, done = 3, failed = 4 };

struct job_word {
  job_state state;
  std::uint64_t generation;

  static constexpr job_word unpack(std::uint64_t w) noexcept { return {static_cast<job_state>(w & 0xf), w >> 4}; }
  constexpr std::uint64_t pack() const noexcept { return static_cast<std::uint64_t>(state) | (generation << 4); }
  friend constexpr bool operator==(const job_word&, const job_word&) = default;
};
enum class part_state : std::uint8_t { queued = 0, slotted = 1, done = 2, failed = 3 };
using cuzk::priority;  // util/priority.hpp
using cuzk::rank;

inline constexpr std::size_t job_id_bytes = 64;
inline constexpr std::size_t client_bytes = 64;
inline constexpr std::size_t spec_bytes = 2048;    // the request (JSON), opaque to shm
inline constexpr std::size_t result_bytes = 2048;  // proof + public signals per partition
inline constexpr std::size_t error_bytes = 512;

/* The stored proof's phases (groth16/phase_timings.hpp) and where it was proven. */
struct partition_timings {
  groth16::phase_timings phases;
  std::int32_t gpu;          // the device index that proved it, -1 = the CPU
  std::uint32_t witness_us;  // of its synthesis, the witness generator's (0: none ran; saturates)
};
static_assert(std::is_trivially_copyable_v<partition_timings> && sizeof(partition_timings) == 96);

struct partition_record {
  std::atomic<std::uint64_t> word;
  std::atomic<std::uint32_t>
      syntheses;  // synthesis starts, less those aborted for a critical job (crash tests count these)
  std::uint32_t result_len;
  std::uint64_t synth_start_ns, synth_end_ns, prove_start_ns, prove_end_ns;
  std::uint64_t proof_generation;  // slot generation the stored proof came from (dedup)
  partition_timings timings;       // of the stored proof, written with it
  std::uint8_t result[result_bytes];
};

/* Who recorded a job: a client's Submit, or a cluster node's claim (no client request sets it). */
enum class job_origin : std::uint8_t { client = 0, cluster = 1 };

struct job_record {
  std::atomic<std::uint64_t> word;
  std::uint64_t seq;       // submission order (FIFO within a priority)
  shm::priority priority;  // one byte
  std::uint8_t n_partitions;
  std::uint8_t curve;   // the key's curve (curves::curve_id: 1 = BLS12-381, 2 = BN254)
  std::uint8_t origin;  // job_origin: who recorded it (formerly padding: the layout is unchanged)
  std::uint16_t spec_len;
  std::uint32_t error_len;
  std::uint64_t submitted_ns, finished_ns;
  std::uint32_t owner_uid;             // the submitting client's uid: job ids are per uid
  std::atomic<std::uint32_t> fetched;  // 1 once its proof or failure was delivered
  std::uint8_t digest[16];             // of the request: a resubmitted id must match it
  char job_id[job_id_bytes];           // NUL-padded; the idempotency key (per owner_uid)
  char client[client_bytes];
  char key_id[64];  // SRS region content hash (hex) the job proves with
  char spec[spec_bytes];
  char error[error_bytes];
  partition_record parts[max_partitions];
};
static_assert(std::is_trivially_copyable_v<slot_word>);
static_assert(offsetof(job_record, origin) == 19 && offsetof(job_record, spec_len) == 20, "origin is former padding");

/* A NUL-padded text field of a record (job id, client, key id, lease name). */
template <std::size_t N>
std::string_view field_text(const char (&f)[N]) noexcept {
  return {f, strnlen(f, N)};
}

}  // namespace cuzk::shm
