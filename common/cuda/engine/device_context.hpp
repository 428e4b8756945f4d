// One GPU as the service uses it (DESIGN §5): the keys resident on it (of
// either curve, side by side), least recently used first out, under a
// device-memory budget; the proving workers that share them; and how busy it
// has been. With --gpus 0,0 two contexts share one device, each with its own
// keys and workers.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "cuda/engine/device_key.hpp"
#include "cuda/host_register.hpp"
#include "cuda/memory.hpp"
#include "curves/curve_id.hpp"
#include "groth16/keys.hpp"
#include "sizing/device_memory.hpp"
#include "util/interval_union.hpp"

namespace cuzk::cuda {

struct context_options {
  int device = 0;
  /* device memory left to the CUDA runtime, CUB and other processes: no allocation may eat into it */
  std::size_t reserve = std::size_t(2) << 30;
  /* what resident keys and the workers' buffers may use; 0: the device's memory minus the reserve */
  std::size_t budget = 0;
  unsigned workers = 2;
  unsigned sharers = 1;  // logical GPUs on this device (--gpus 0,0: 2): the default budget is split between them
  /* shifted copies of a key's MSM bases a query (cuda/msm/msm.hpp: shifts), planned at upload from the
     budget left beside the key and the workers' buffers: -1 as many as pay, 0 none, N at most N */
  int msm_copies = -1;
};

struct context_status {
  int device = 0;
  std::string name;
  unsigned workers = 0;
  double busy_ratio = 0;
  double busy_seconds = 0;  // since the context was made: the union of the proofs' kernel spans
  std::size_t mem_total = 0, mem_free = 0, budget = 0, resident_bytes = 0;
  std::vector<std::string> resident_keys;       // most recently used first
  std::vector<std::string> resident_shifts;     // each key's shifted copies (key_shifts::describe), same order
  std::vector<std::size_t> resident_key_bytes;  // each key's footprint, same order
  std::size_t shifted_bytes = 0;                // of resident_bytes, the shifted copies' points
  std::uint64_t uploads = 0, evictions = 0, streamed = 0;
  std::string register_error;  // the first SRS region that could not be registered, and why
};

class device_context {
 public:
  /* Throws std::invalid_argument for a device that is not there, cuda::error otherwise. */
  device_context(const context_options& opt, std::shared_ptr<host_registry> registry);
  device_context(const device_context&) = delete;
  device_context& operator=(const device_context&) = delete;

  int device() const { return opt_.device; }
  unsigned workers() const { return opt_.workers; }
  std::size_t budget() const { return budget_; }

  /* The key's bases on this device: resident already, or uploaded now on s
     (synchronised before return) after evicting the least recently used
     keys no proof holds (never one whose points left host memory). Null when
     the key cannot stay resident within the budget next to the workers'
     buffers: the caller streams it; std::runtime_error instead for a key
     whose points left host memory (host_copy = drop). An empty
     key_id names the key by its address. Keys of both curves share the
     budget. */
  template <class C>
  std::shared_ptr<const basic_device_key<C>> resident(std::string_view key_id, const groth16::basic_proving_key<C>& pk,
                                                      cudaStream_t s);
  /* Registers the key's SRS region (read-only, portable) once, so that
     uploads from it run at pinned speed; false when the key has none. */
  template <class C>
  bool register_mapped(const groth16::basic_proving_key<C>& pk);
  /* Unregisters the key's SRS region, whose points are about to leave host memory (host_copy = drop):
     registered pages stay pinned and would not be freed. */
  void forget_mapped(const groth16::mapped_bases& m);
  void note_streamed();
  /* Whether a key of these sizes fits the budget beside the keys that may not be evicted (their points
     left host memory) and the workers' buffers. */
  bool could_hold(const sizing::key_dims& k) const;

  /* A proof's kernels ran from a to b (recorded on this device, both complete). */
  void note_busy(const event& a, const event& b);
  /* time with a proof's kernels running / wall time, over the last `window` */
  double busy_ratio(std::chrono::seconds window = std::chrono::seconds(60)) const;
  context_status status() const;

 private:
  /* a resident key: a basic_device_key<C> of the curve `curve` */
  struct entry {
    std::string id;
    curves::curve_id curve;
    std::shared_ptr<const void> key;
    std::size_t footprint;
    std::string shifts;            // key_shifts::describe()
    std::size_t shifted_bytes;     // the copies' points
    groth16::mapped_bases mapped;  // its points released from host memory (host_copy = drop): never evicted
  };
  std::string id_of(std::string_view key_id, const void* pk) const;
  bool register_region(const groth16::mapped_bases& m);
  void trim_intervals(double now);
  double now_s() const;

  context_options opt_;
  std::shared_ptr<host_registry> registry_;
  std::size_t budget_ = 0;
  std::string name_;

  mutable std::mutex mu_;
  std::list<entry> keys_;  // most recently used first
  std::size_t resident_bytes_ = 0;
  std::uint64_t uploads_ = 0, evictions_ = 0, streamed_ = 0;

  mutable std::mutex register_mu_;  // not mu_: resident() registers while holding mu_
  std::string register_error_;

  mutable std::mutex busy_mu_;
  event ref_;
  std::chrono::steady_clock::time_point ref_host_;
  std::deque<std::pair<double, double>> busy_;  // seconds since ref_, in the order proofs finished
  util::interval_union busy_union_;             // the same spans, merged: busy_total_ counts each second once
  double busy_total_ = 0;
};

}  // namespace cuzk::cuda
