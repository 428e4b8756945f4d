// What this node says about itself in a status reply and a capacity: its
// GPUs (to every client), its slots, workers and keys' memory (to operators),
// its slot classes and recent throughput. A new field of the node's own state
// in a reply is filled here; the jobs come from the job directory.
#pragma once

#include <chrono>
#include <vector>

#include "admin/throughput.hpp"
#include "backend/backend.hpp"
#include "keys/key_store.hpp"
#include "proto/message.hpp"
#include "server_options.hpp"
#include "shm/region.hpp"
#include "shm/slot_table.hpp"
#include "workers/workers.hpp"

namespace cuzk::server {

class node_status {
 public:
  struct context {
    const server_options& opt;
    const shm::region& region;
    const shm::slot_table& slots;
    const prover_backend& backend;
    const key_store& keys;
    const workers& pool_workers;
    const throughput& proven;
  };
  explicit node_status(context c) : c_(c) {}

  /* The node's part of a status reply: the hung timeout and the GPUs; for operators also the slots, workers
     and keys' memory. */
  void describe(proto::status_reply& st, bool operator_view) const;
  /* The node's part of a capacity: its slot classes (free and all), its recent throughput and the circom circuits
     installed in its pool (read again at most every 2 s: a few small files in the pool's directory). */
  void capacity(proto::capacity& cap) const;
  /* The --key keys' host and device bytes and their host_copy policy (status, metrics, log). */
  std::vector<proto::key_memory> key_memory() const;

 private:
  context c_;
  mutable std::vector<proto::installed_circuit> circuits_;
  mutable std::chrono::steady_clock::time_point circuits_read_{};
};

}  // namespace cuzk::server
