// The synthesis workers (DESIGN §4): who they are (a worker message speaks
// only for the lease its own process holds), which slot each synthesizes,
// FREE slots handed to idle workers, and hung or dead workers' slots taken
// back. Critical partitions come first: reserve_workers idle workers are
// kept for them, and one that finds no worker or slot aborts the synthesis
// of the lowest-priority, newest job (its partition waits again, its
// synthesis not counted as a crash), unless that job was preempted
// critical max_preemptions times already (preemption_ledger.hpp).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "queue/job_queue.hpp"
#include "outbox.hpp"
#include "proto/message.hpp"
#include "server_options.hpp"
#include "shm/job_table.hpp"
#include "shm/region.hpp"
#include "shm/slot_table.hpp"

namespace cuzk::server {

class workers {
 public:
  struct context {
    const server_options& opt;
    const shm::region& region;
    shm::slot_table& slots;
    shm::job_table& jobs;
    job_queue& queue;
    outbox& out;
    server_counters& counters;
  };
  struct hooks {
    std::function<std::optional<std::uint32_t>(const shm::job_record&)>
        class_for;  // the slot class of a job, once its key is parsed
    std::function<void(shm::job_ref)>
        failed;                      // a job failed here (counted, dropped from the queue, its Waits answered)
    std::function<void()> dispatch;  // a worker became idle
  };
  workers(context c, hooks h) : c_(c), h_(std::move(h)) {}

  void ready(const peer& p, const proto::ready& r);
  void filled(const peer& p, const proto::filled& f);
  void synth_failed(const peer& p, const proto::synth_failed& f);
  void heartbeat(const peer& p, const proto::heartbeat& h);
  void bye(const peer& p, const proto::bye& b);
  /* The worker stopped the synthesis it was asked to abort: its slot is FREE again, its partition QUEUED. */
  void aborted(const peer& p, const proto::synth_aborted& a);
  /* Kills hung workers, forgets dead ones, reclaims their slots and requeues their partitions. */
  void reap_dead();
  /* FREE slots to idle workers, in the queue's order; then, for critical partitions that found no worker or
     slot, aborts of lower syntheses. */
  void assign();
  std::size_t size() const { return workers_.size(); }
  void describe(proto::status_reply& st) const;

 private:
  struct worker {
    std::string identity;
    std::string name;
    std::int32_t pid = 0;
    uid_t uid = 0;
    std::uint64_t capacity = 0;
    std::optional<std::pair<std::uint64_t, std::uint64_t>> busy;  // (slot, gen)
    std::chrono::steady_clock::time_point seen;
  };
  /* The lease a worker message may speak for: held by a worker process whose pid is the sender's. */
  bool lease_of_sender(const peer& p, std::uint32_t lease) const;
  /* The lease registered for this connection by its Ready, if the sender still holds it. */
  std::optional<std::uint32_t> sender_lease(const peer& p) const;
  void free_busy(std::uint64_t slot, std::uint64_t gen);
  void kill_hung();
  proto::assign assign_message(std::uint64_t slot, std::uint64_t gen, shm::job_ref j, std::uint32_t partition,
                               const shm::job_record& rec) const;
  /* The slot classes of the critical partitions still waiting (whose keys are parsed). */
  std::vector<std::uint32_t> waiting_critical();
  /* Asks the worker synthesizing the lowest-priority, newest non-critical job still preemptible in a slot of
     class >= cls (one a critical partition of that class fits) to abort; false when there is none. */
  bool abort_one(std::uint32_t cls);
  void preempt();

  context c_;
  hooks h_;
  std::map<std::uint32_t, worker> workers_;          // by lease index
  std::map<std::uint64_t, std::uint64_t> aborting_;  // slot → generation asked to abort, until it moves on
};

}  // namespace cuzk::server
