// Where proofs are computed: the CPU (groth16::prove, oneTBB) or a GPU. The
// server hands a backend a FILLED slot's memory; the backend must leave it
// intact, because a server that dies mid-proof leaves the slot FILLED and
// the next server proves the same bytes again.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "groth16/keys.hpp"
#include "groth16/prover.hpp"

namespace cuzk::server {

using groth16::fr_t;

struct prove_input {
  const groth16::proving_key& pk;
  std::span<const fr_t> a, b, c;  // domain_size each
  std::span<const fr_t> z;        // n_vars
  std::optional<groth16::blinding> rs;
};

struct prove_output {
  groth16::proof proof;
  groth16::prove_timings timings;
  double stage = 0;  // seconds copying a, b, c, z into heap memory first (--no-register)
};

/* A GPU backend throws device_fault (backend/fault.hpp) for a device error:
   the server retries a transient one and exits on a sticky one. */
class prover_backend {
 public:
  virtual ~prover_backend() = default;
  virtual std::string_view name() const = 0;
  /* The pool's payload, split at slot boundaries: registered once (cudaHostRegister) by a GPU backend,
     which throws std::runtime_error with a sentence when it cannot. */
  virtual void attach_pool(std::span<const std::span<std::uint8_t>> chunks) { (void)chunks; }
  virtual prove_output prove(const prove_input& in) = 0;
};

struct backend_options {
  std::string kind = "auto";  // cpu, cuda or auto
  int threads = 0;            // CPU threads (the CPU engine; the orchestrator's assembly); 0: every core
  int device = 0;             // CUDA device
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
