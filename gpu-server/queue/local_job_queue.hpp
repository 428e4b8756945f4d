// The node-local job queue: the region's job table is the truth, and the
// QUEUED partitions are mirrored here in priority then submission order.
// The mirror follows the changes: this server's own (a Submit, a partition
// taken or given back, a job dropped) as they happen, and other processes'
// through the slot table: every change a worker or a reclamation makes to a
// job's record moves a slot bound to that job afterwards (a dead worker's
// partition is requeued, then its slot freed; a worker fails its job, then
// abandons its slot), so sync() looks again only at the jobs of the slots
// whose word changed since its last call. A restarted server refills the
// mirror from a scan of the table (refresh).
#pragma once

#include <functional>
#include <vector>

#include "queue/job_queue.hpp"
#include "shm/slot_table.hpp"

namespace cuzk::server {

class local_job_queue final : public job_queue {
 public:
  /* failed: a job this queue failed (its input is poison), after it left the queue. */
  local_job_queue(shm::job_table& jobs, const shm::slot_table& slots, unsigned max_synth_crashes,
                  std::function<void(shm::job_ref)> failed)
      : jobs_(jobs), slots_(slots), max_synth_crashes_(max_synth_crashes), failed_(std::move(failed)) {}

  shm::result<shm::submit_outcome> submit(const shm::job_request& req) override;
  void refresh(bool log) override;
  void sync() override;
  std::optional<queued_partition> take(
      const std::function<bool(const queued_partition&, const shm::job_record&)>& fits) override;
  bool claim(const queued_partition& q, std::uint32_t slot) override;
  void give_back(const queued_partition& q) override;
  bool refuse_poison(shm::job_ref j, std::uint32_t partition, unsigned max, const std::string& last) override;
  void drop(shm::job_ref j) override { queue_.drop(j); }
  std::size_t size() const override { return queue_.size(); }
  std::size_t count(shm::priority p) const override { return queue_.count(p); }

 private:
  /* A job's partitions in the mirror as in the table: those QUEUED there wait (unless poison), no other. */
  bool look_again(shm::job_ref j);

  shm::job_table& jobs_;
  const shm::slot_table& slots_;
  unsigned max_synth_crashes_;
  std::function<void(shm::job_ref)> failed_;
  scheduler queue_;
  struct seen_slot {
    std::uint64_t word = 0;
    shm::job_ref job;
  };
  std::vector<seen_slot> seen_;  // each slot's word and job at the last sync
};

}  // namespace cuzk::server
