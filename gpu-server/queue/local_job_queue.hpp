// The node-local job queue: the region's job table is the truth, and the
// QUEUED partitions are mirrored here in priority then submission order;
// a restarted server refills the mirror from the table.
#pragma once

#include <functional>

#include "queue/job_queue.hpp"

namespace cuzk::server {

class local_job_queue final : public job_queue {
 public:
  /* failed: a job this queue failed (its input is poison), after it left the queue. */
  local_job_queue(shm::job_table& jobs, unsigned max_synth_crashes, std::function<void(shm::job_ref)> failed)
      : jobs_(jobs), max_synth_crashes_(max_synth_crashes), failed_(std::move(failed)) {}

  shm::result<shm::submit_outcome> submit(const shm::job_request& req) override;
  void refresh(bool log) override;
  std::optional<queued_partition> take(
      const std::function<bool(const queued_partition&, const shm::job_record&)>& fits) override;
  bool claim(const queued_partition& q, std::uint32_t slot) override;
  void give_back(const queued_partition& q) override;
  bool refuse_poison(shm::job_ref j, std::uint32_t partition, unsigned max, const std::string& last) override;
  void drop(shm::job_ref j) override { queue_.drop(j); }
  std::size_t size() const override { return queue_.size(); }
  std::size_t count(shm::priority p) const override { return queue_.count(p); }

 private:
  shm::job_table& jobs_;
  unsigned max_synth_crashes_;
  std::function<void(shm::job_ref)> failed_;
  scheduler queue_;
};

}  // namespace cuzk::server
