// Which lane of which GPU worker the CUDA backend gives the next proof
// (backend/cuda_backend.cpp; cuda::make_worker): a free lane of the GPU with
// the fewest proofs in flight, an idle worker's before a busy one's (whose
// lane would wait for the running proof, copying its inputs meanwhile),
// ties round robin from `next`. Host-only, so the unit tests hold it.
#pragma once

#include <cstddef>
#include <tuple>
#include <vector>

namespace cuzk::server::cuda_lanes {

struct lane_state {
  int gpu;          // index into the backend's GPUs
  unsigned worker;  // the worker the lane belongs to (unique over the GPUs)
  bool busy;
};

/* The index of the lane to take; lanes.size() when none is free. */
inline std::size_t pick(const std::vector<lane_state>& lanes, std::size_t next) {
  const std::size_t n = lanes.size();
  std::vector<unsigned> gpu_busy, worker_busy;
  for (const auto& l : lanes) {
    if (gpu_busy.size() <= std::size_t(l.gpu)) gpu_busy.resize(std::size_t(l.gpu) + 1, 0);
    if (worker_busy.size() <= l.worker) worker_busy.resize(l.worker + 1, 0);
    gpu_busy[std::size_t(l.gpu)] += l.busy;
    worker_busy[l.worker] += l.busy;
  }
  std::size_t best = n;
  auto rank = [&](std::size_t i) {
    return std::tuple(gpu_busy[std::size_t(lanes[i].gpu)], worker_busy[lanes[i].worker]);
  };
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i = (next + k) % n;
    if (!lanes[i].busy && (best == n || rank(i) < rank(best))) best = i;
  }
  return best;
}

}  // namespace cuzk::server::cuda_lanes
