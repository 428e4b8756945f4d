// Where proofs are computed: the CPU (groth16::prove, oneTBB) or a GPU. The
// server hands a backend a FILLED slot's memory; the backend must leave it
// intact, because a server that dies mid-proof leaves the slot FILLED and
// the next server proves the same bytes again.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "curves/dispatch.hpp"
#include "groth16/keys.hpp"
#include "groth16/prover.hpp"
#include "job/any_key.hpp"
#include "proto/message.hpp"
#include "sizing/device_memory.hpp"

namespace cuzk::server {

using groth16::fr_t;

/* One proof's inputs on curve C: a slot's memory, and its key named by the SRS region's content hash */
using groth16::basic_prove_input;

template <class C>
struct basic_prove_output {
  groth16::basic_proof<C> proof;
  groth16::prove_timings timings;
  double stage = 0;       // seconds copying a, b, c, z into heap memory first (--no-register)
  int gpu = -1;           // the GPU that proved it (index into gpus()), -1 on the CPU
  int worker = 0;         // which of that GPU's proving workers (0 on the CPU)
  bool streamed = false;  // its key's bases were streamed, not resident
};

using proto::gpu_status;  // one GPU as status reports it

/* A GPU backend throws device_fault (backend/fault.hpp) for a device error:
   the server retries a transient one and exits on a sticky one. */
class prover_backend {
 public:
  virtual ~prover_backend() = default;
  virtual std::string_view name() const = 0;
  /* The pool's payload, split at slot boundaries: registered once (cudaHostRegister) by a GPU backend,
     which throws std::runtime_error with a sentence when it cannot. */
  virtual void attach_pool(std::span<const std::span<std::uint8_t>> chunks) { (void)chunks; }
  /* A key the server will prove with (preloaded, or a queued job's): a GPU
     backend registers its SRS region and makes it resident where it fits.
     true: resident on every GPU. */
  virtual bool attach_key(std::string_view key_id, const job::any_key& pk) {
    (void)key_id, (void)pk;
    return false;
  }
  /* The key's points are about to leave host memory (host_copy = drop): whatever holds their pages lets go. */
  virtual void forget_host_copy(const job::any_key& pk) { (void)pk; }
  /* Whether a key of these sizes would stay resident on every GPU (keys that may not be evicted already
     there); false on the CPU. */
  virtual bool would_stay_resident(const sizing::key_dims& k) const {
    (void)k;
    return false;
  }
  template <class C>
  basic_prove_output<C> prove(const basic_prove_input<C>& in) {
    return std::get<basic_prove_output<C>>(prove_any(&in));
  }
  /* true: it uploads a key's bases from its mapped SRS region, so the server
     parses keys without decoding their points (job::key_cache::decode_points) */
  virtual bool reads_mapped_bases() const { return false; }
  /* How many prove() calls may run at once (from different threads). */
  virtual unsigned concurrency() const { return 1; }
  virtual std::vector<gpu_status> gpus() const { return {}; }

 protected:
  template <class C>
  using input_of = const basic_prove_input<C>*;
  using any_input = curves::all::variant<input_of>;
  using any_output = curves::all::variant<basic_prove_output>;
  /* prove() on the input's curve: a backend visits `in` with one template over the curve */
  virtual any_output prove_any(any_input in) = 0;
};

struct backend_options {
  std::string kind = "auto";  // cpu, cuda or auto
  int threads = 0;            // CPU threads (the CPU engine; the orchestrator's assembly); 0: every core
  /* CUDA devices, one logical GPU each (--gpus 0,0: two on device 0); empty: every visible device */
  std::vector<int> gpus;
  unsigned workers_per_gpu = 2;  // proving workers per GPU: one copies and prepares while the other computes
  std::size_t device_reserve = std::size_t(2) << 30;  // device memory no allocation may use
  std::size_t device_budget = 0;                      // what resident keys and buffers may use per GPU; 0: the rest
  int msm_copies = -1;  // shifted copies of a resident key's MSM bases a query: -1 as many as pay and fit, 0 none
  /* false (--no-register): the pool is not registered and a, b, c, z go
     through heap memory first, the old way, to compare the two */
  bool register_pool = true;
};

/* threads = 0: every core. */
std::unique_ptr<prover_backend> make_cpu_backend(int threads);

/* cpu, cuda, or auto (cuda when built with CUDA and a device is present,
   else cpu); CUZK_CUDA_FAULT arms fault injection (backend/fault.hpp).
   std::invalid_argument for an unknown or unavailable kind; `note` says what
   auto chose and why. */
std::unique_ptr<prover_backend> make_backend(const backend_options& opt, std::string* note = nullptr);

}  // namespace cuzk::server
