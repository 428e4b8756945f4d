// The CUDA engine (DESIGN §5): H by device NTTs and all five MSMs on the GPU,
// behind the groth16::engine interface the CPU engine also implements. The
// orchestrator (groth16::prove) keeps blinding and assembly. One engine is
// one proving worker: its own streams and buffers, one proof at a time;
// the workers of a device_context share its resident keys.
#pragma once

#include <memory>
#include <string>

#include "cuda/engine/device_context.hpp"
#include "groth16/engine.hpp"

namespace cuzk::cuda {

struct engine_options {
  int device = 0;
  /* the five MSMs on five streams at once, or one after another on one
     stream (each MSM alone already fills the GPU; docs/benchmarks.md) */
  bool overlap_msms = false;
};

class engine : public groth16::engine {
 public:
  /* The key of the next proofs by id (the SRS region's content hash), so
     that workers share its resident bases; empty: by the key's address. */
  virtual void use_key(std::string key_id) = 0;
  /* How the last proof got its bases: resident (false) or streamed (true). */
  virtual bool streamed() const = 0;
};

/* A worker on a context of its own (one worker's budget). Throws cuda::error
   when the device cannot be used. */
std::unique_ptr<engine> make_engine(const engine_options& opt = {});
/* A worker on a shared context. */
std::unique_ptr<engine> make_engine(std::shared_ptr<device_context> ctx, bool overlap_msms = false);

}  // namespace cuzk::cuda
