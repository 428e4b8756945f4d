// The CUDA engine (DESIGN §5): H by device NTTs and all five MSMs on the GPU,
// behind the groth16::basic_engine<C> interface the CPU engine also
// implements, for each curve (basic_engine<C>, make_engine<C>()). The
// orchestrator (groth16::prove) keeps blinding and assembly. One engine is
// one proving worker: its own streams and buffers, one proof at a time; the
// workers of a device_context share its resident keys, whatever their curves.
// make_worker makes a worker with lanes: engines over the same buffers, so
// the next proof's copy runs while the current one's MSMs do.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "cuda/engine/device_context.hpp"
#include "curves/dispatch.hpp"
#include "groth16/engine.hpp"

namespace cuzk::cuda {

struct engine_options {
  int device = 0;
  /* the five MSMs on five streams at once, or one after another on one
     stream (each MSM alone already fills the GPU; docs/benchmarks.md) */
  bool overlap_msms = false;
  /* shifted copies of the key's MSM bases (context_options::msm_copies): none
     by default, since a one-off proof does not repay making them */
  int msm_copies = 0;
};

template <class C>
class basic_engine : public groth16::basic_engine<C> {
 public:
  /* The key of the next proofs by id (the SRS region's content hash), so
     that workers share its resident bases; empty: by the key's address. */
  virtual void use_key(std::string key_id) = 0;
  /* How the last proof got its bases: resident (false) or streamed (true). */
  virtual bool streamed() const = 0;
};

/* A worker on a context of its own (one worker's budget). Throws cuda::error
   when the device cannot be used. Instantiated for every curve. */
template <class C = curves::bls12_381>
std::unique_ptr<basic_engine<C>> make_engine(const engine_options& opt = {});
/* A worker on a shared context. */
template <class C = curves::bls12_381>
std::unique_ptr<basic_engine<C>> make_engine(std::shared_ptr<device_context> ctx, bool overlap_msms = false);

/* One worker on a shared context as `lanes` engines of each curve, each
   lane for one thread: one set of buffers a curve (no more device memory
   than make_engine's worker) and one proof at a time on the worker
   (cuda/engine/proof_gate.hpp). A lane's proof that finds another lane's
   running on the same curve copies its z, a, b and c into the buffers as
   soon as that proof's NTTs and split have read its own, while its MSMs
   run, and starts its kernels when it ends; prove_timings::wait says how
   long it waited. The copy of the next FILLED slot is then off the critical
   path where only one worker's buffers fit beside the key. */
template <class C>
using lanes_of = std::vector<std::unique_ptr<basic_engine<C>>>;
using worker_lanes = curves::all::tuple<lanes_of>;
worker_lanes make_worker(std::shared_ptr<device_context> ctx, unsigned lanes, bool overlap_msms = false);

}  // namespace cuzk::cuda
