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
};

class prover_backend {
 public:
  virtual ~prover_backend() = default;
  virtual std::string_view name() const = 0;
  /* The pool's payload, split at slot boundaries: registered once (cudaHostRegister) by a GPU backend. */
  virtual void attach_pool(std::span<const std::span<std::uint8_t>> chunks) { (void)chunks; }
  virtual prove_output prove(const prove_input& in) = 0;
};

/* threads = 0: every core. */
std::unique_ptr<prover_backend> make_cpu_backend(int threads);

/* "cpu", "cuda" or "auto" (cuda when built with CUDA and a device is present,
   else cpu). std::invalid_argument for an unknown or unavailable kind; `note`
   says what auto chose and why. */
std::unique_ptr<prover_backend> make_backend(std::string_view kind, int threads, std::string* note = nullptr);

}  // namespace cuzk::server
