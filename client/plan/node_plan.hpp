// A node's sizing from its keys, GPUs and host RAM (cuzk plan): the pool's
// slot classes, /dev/shm and huge pages, each key's residency on each GPU,
// host RAM, and the partitions a minute the measured timings give. Pure
// arithmetic over the sizing code the server itself runs: shm's layout plan
// (the region cuzk-shm creates) and sizing's device figures (what
// cuda::device_context makes resident), so the plan and the server agree.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sizing/device_memory.hpp"

namespace cuzk::plan {

inline constexpr std::uint64_t GiB = std::uint64_t(1) << 30;

/* One key to plan for, by key id (an SRS region of a pool), .zkey file, or
   native circuit spec (no key exists yet: its shape comes from counting). */
struct key_input {
  std::string name;    // as given: the id, the path or the spec
  std::string source;  // "key id", "file" or "circuit"
  sizing::key_dims dims;
  std::uint64_t n_public = 0;
  std::uint64_t constraints = 0;  // circuits: counted; keys: unknown (0)
  std::uint64_t zkey_bytes = 0;   // the .zkey (its SRS region's content); circuits: the key cuzk setup would write
  std::uint64_t n_coefs = 0;      // the .zkey's coefficient records
  bool native = false;            // a native circuit's key: the server releases its coefficients from its region
  /* what its SRS region keeps in memory once the server has parsed it (and dropped its points) */
  std::uint64_t resident_content(bool points_dropped = false) const;
  bool installed = false;  // already in the pool (a key id): its SRS region exists
};

struct gpu_input {
  std::string name;  // e.g. "NVIDIA H200"; empty when given by --gpu-memory
  std::uint64_t memory = 0;
};

struct node_inputs {
  std::vector<key_input> keys;
  std::vector<gpu_input> gpus;  // none: the CPU backend
  std::uint64_t host_ram = 0;   // bytes; 0: not checked
  std::uint64_t shm_size = 0;   // /dev/shm's size in bytes; 0: not checked
  unsigned cpu_cores = 1;
  unsigned workers_per_gpu = 2;       // cuzk-gpu-server --workers-per-gpu
  unsigned synth_workers = 0;         // 0: one a proving worker (one for the CPU backend)
  std::uint64_t slots_per_class = 0;  // 0: proving workers + synth workers + 2
  std::uint64_t reserve = 2 * GiB;    // --device-reserve
  std::uint64_t budget = 0;           // --device-budget, 0: all but the reserve
  int msm_copies = -1;                // --msm-copies
  std::string pool_name;
  std::string hugepages;        // hugetlbfs directory to create the pool on, or empty
  bool host_copy_drop = false;  // the server's --host-copy drop: its total is the one checked against host_ram
};

struct class_plan {
  std::uint64_t count = 0, domain = 0, witness = 0, slot_bytes = 0;
  std::vector<std::string> keys;
};

/* One key on one GPU, as device_context::resident would leave it after the
   keys before it in the list were made resident. */
struct residency {
  bool resident = false;
  std::uint64_t bases = 0;           // the bases' bytes
  std::uint64_t footprint = 0;       // bases, copies and MSM temporaries
  std::uint64_t copies_bytes = 0;    // of footprint, the shifted copies' points
  std::string copies = "none";       // key_copies::describe()
  std::uint64_t working_each = 0;    // one proving worker's buffers
  unsigned workers_fit = 0;          // workers whose buffers fit beside the key (without copies)
  std::vector<std::string> evicted;  // keys this one pushed out (LRU)
};

struct gpu_plan {
  gpu_input gpu;
  std::uint64_t budget = 0;
  std::vector<residency> keys;               // as node_inputs::keys
  std::vector<std::string> resident_at_end;  // the keys still resident after the last upload
};

/* The host memory a key holds, kept per key so that a per-key policy (a
   planned host_copy = keep|drop) changes its own lines and the totals follow. */
struct key_host {
  std::uint64_t srs_region = 0;       // its SRS region in /dev/shm (host_copy = keep)
  std::uint64_t server = 0;           // the server's own copy (the CPU backend decodes the key; CUDA maps it)
  std::uint64_t srs_region_drop = 0;  // its region with host_copy = drop: without its points where that applies
  std::string drop_refused;           // why drop does not apply to it (it then keeps its points), or empty
};

struct key_plan {
  key_host host;
  std::size_t slot_class = 0;
  double proof_seconds = 0;          // one partition, with the key as it ends up (streamed adds its bases' copy)
  double partitions_per_minute = 0;  // the whole node, this key alone
  std::string timings_source;
};

struct node_plan {
  node_inputs in;
  std::vector<class_plan> classes;
  std::uint32_t leases = 0;
  std::uint64_t jobs = 0;
  std::uint64_t pool_bytes = 0;    // the region as cuzk-shm creates it (huge pages: rounded to the page)
  std::uint64_t layout_hash = 0;   // the header's layout hash
  std::uint64_t srs_bytes = 0;     // every key's SRS region
  std::uint64_t shm_bytes = 0;     // /dev/shm: the pool (unless on huge pages) and the SRS regions
  std::uint64_t hugepages_2m = 0;  // 2 MiB pages the pool takes on hugetlbfs
  unsigned synth_workers = 0;
  std::uint64_t synth_worker_bytes = 0;  // one synth worker's private memory
  std::uint64_t server_bytes = 0;        // the server's private memory
  std::uint64_t host_bytes = 0;          // everything: pool, SRS regions, workers, server (host_copy = keep)
  std::uint64_t host_bytes_drop = 0;     // the same with host_copy = drop
  std::vector<gpu_plan> gpus;
  std::vector<key_plan> keys;
  std::vector<std::string> does_not_fit;  // sentences naming the sizes
  std::vector<std::string> notes;
};

/* One synth worker's private memory beyond the pool and the SRS regions it
   maps (it synthesizes straight into its slot and reads .wtns/.r1cs files a
   chunk at a time). */
std::uint64_t synth_worker_bytes();

/* Never throws for sizes that do not fit: they are does_not_fit lines.
   std::invalid_argument only for inputs no plan can have (no keys). */
node_plan plan_node(const node_inputs& in);

std::string gib(std::uint64_t bytes);

}  // namespace cuzk::plan
