// The node-local job queue: the region's job table is the truth, and the
// QUEUED partitions are mirrored here in priority then submission order.
// The mirror follows the changes: this server's own (a Submit, a partition
// taken or given back, a job dropped) as they happen, and other processes'
// through the partitions this server handed out: the only change another
// process makes that the mirror must see is one of those returning to
// QUEUED (a dead worker's reclamation, run by the server or by the worker
// that takes its lease next) or ending (a worker fails its job), so sync()
// looks again at each partition still out, O(slots) a tick, never at the
// whole table. A restarted server refills the mirror, and the list of
// partitions out, from a scan of the table (refresh).
#pragma once

#include <functional>
#include <set>

#include "queue/job_queue.hpp"

namespace cuzk::server {

class local_job_queue final : public job_queue {
 public:
  /* failed: a job this queue failed (its input is poison), after it left the queue. */
  local_job_queue(shm::job_table& jobs, unsigned max_synth_crashes, std::function<void(shm::job_ref)> failed)
      : jobs_(jobs), max_synth_crashes_(max_synth_crashes), failed_(std::move(failed)) {}

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
  std::size_t out() const { return out_.size(); }

 private:
  /* A partition handed out, looked at again: whether it is still out (SLOTTED); one back in QUEUED waits
     again (unless poison: its job goes to `refused`), one whose job ended takes its job's others along. */
  bool still_out(const queued_partition& q, std::vector<shm::job_ref>& refused);

  shm::job_table& jobs_;
  unsigned max_synth_crashes_;
  std::function<void(shm::job_ref)> failed_;
  scheduler queue_;
  std::set<queued_partition> out_;  // taken and claimed (SLOTTED), not yet seen to end or come back
};

}  // namespace cuzk::server
