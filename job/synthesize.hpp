// Synthesis of one job partition straight into caller memory, a shared-memory
// slot in the service: native circuits through proving_cs, circom jobs from
// their .wtns (a, b, c by the .r1cs matrices when given, else by the key's
// A and B coefficients with c = a·b, as snarkjs does).
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <stdexcept>
#include <type_traits>

#include "groth16/keys.hpp"
#include "groth16/native.hpp"
#include "job/any_key.hpp"
#include "job/generator_sandbox.hpp"
#include "job/spec.hpp"
#include "r1cs/r1cs_file.hpp"
#include "shm/slot_table.hpp"

namespace cuzk::job {

/* What an installed circom circuit's job needs besides its spec: the pool it is installed in and the limits its
   witness generator runs under (job/generator_sandbox.hpp). */
struct installed_context {
  std::string pool;
  sandbox_limits limits;
};

struct synth_stats {
  std::uint64_t n_constraints = 0;  // rows written before the public-input rows
  std::uint64_t n_witness = 0;      // elements of z written
  std::uint64_t witness_ns = 0;     // an installed circuit's generator's wall time (0: none ran)
};

/* How far a synthesis got, for a watchdog on another thread: constraints
   and witness values written so far, published every `stride` items (one
   relaxed store, and one pass through failpoint "worker.synthesizing", where
   tests stall a synthesis). Phases that cannot report (parsing the .wtns and
   .r1cs, evaluating a, b, c from them or from the key) are marked opaque
   while they run. Only the synthesizing thread calls advance/publish/opaque.
   cancel() (any thread) makes the next publication from advance() throw
   cancelled: the server aborted the synthesis for a critical job. */
class progress {
 public:
  static constexpr std::uint64_t stride = 4096;
  void advance(std::uint64_t n = 1) {
    local_ += n;
    if (local_ >= next_) {
      publish();
      if (cancelled_.load(std::memory_order_relaxed)) throw cancelled();
    }
  }
  void publish() noexcept;
  void opaque(bool on) noexcept;
  std::uint64_t count() const noexcept { return count_.load(std::memory_order_relaxed); }
  bool in_opaque_phase() const noexcept { return opaque_.load(std::memory_order_relaxed); }
  /* The synthesizing thread sleeps forever at its next publication (its
     slot was given back and the process is exiting). */
  void park() noexcept { parked_.store(true, std::memory_order_relaxed); }
  void cancel() noexcept { cancelled_.store(true, std::memory_order_relaxed); }
  /* A new synthesis starts uncancelled. */
  void reset_cancel() noexcept { cancelled_.store(false, std::memory_order_relaxed); }

  class cancelled : public std::runtime_error {
   public:
    cancelled() : std::runtime_error("the synthesis was aborted") {}
  };

 private:
  std::atomic<std::uint64_t> count_{0};
  std::atomic<bool> opaque_{false}, parked_{false}, cancelled_{false};
  std::uint64_t local_ = 0, next_ = stride;
};

/* buf: a, b, c of pk.domain_size and z of pk.n_vars elements. Throws
   circuits::circuit_error naming an unsatisfied constraint, job_error for
   inputs, files or sizes that do not fit the key. p (optional) is told of
   every constraint and witness value written. */
template <class C>
synth_stats synthesize(const groth16::basic_proving_key<C>& pk, const spec& s, std::uint32_t partition,
                       std::type_identity_t<groth16::basic_buffer_view<C>> buf, progress* p = nullptr,
                       const installed_context* ctx = nullptr);
/* The same into a slot, for a key of either curve (the witness's and
   constraint system's primes must be the key's: job_error naming both). */
synth_stats synthesize(const any_key& key, const spec& s, std::uint32_t partition, const shm::slot_payload& slot,
                       progress* p = nullptr, const installed_context* ctx = nullptr);

/* Why a witness without its .r1cs cannot be proven with this key (a native circuit's key keeps no A/B
   coefficients in the pool), or nullopt. */
std::optional<std::string> coefficients_refusal(const key_shape& k);

/* What the key allows a circom job's .r1cs (checked before it is read). */
r1cs::r1cs_bounds r1cs_bounds_of(const key_shape& k);

/* The public signals z[1..n_public] of a synthesized witness. */
template <class C>
std::vector<ff::fr<C>> public_signals(const groth16::basic_proving_key<C>& pk, groth16::basic_buffer_view<C> buf) {
  return {buf.z.begin() + 1, buf.z.begin() + 1 + pk.n_public};
}

}  // namespace cuzk::job
