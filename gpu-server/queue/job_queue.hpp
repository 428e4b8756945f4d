// Where partitions wait for a synthesis worker. The server's parts see only
// this interface; the node-local queue (local_job_queue: the region's job
// table, mirrored in priority order) implements it. A cluster node's jobs
// wait in its database; the ones it claimed enter this queue like any other
// (cluster/cluster_claims).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "queue/scheduler.hpp"
#include "shm/job_table.hpp"

namespace cuzk::server {

class job_queue {
 public:
  virtual ~job_queue() = default;
  /* Records a job (idempotent by id and owner); a new job's partitions wait from now on. */
  virtual shm::result<shm::submit_outcome> submit(const shm::job_request& req) = 0;
  /* Resynchronizes with the truth (other processes change it too). */
  virtual void refresh(bool log) = 0;
  /* The first waiting partition, by priority then age, for which fits(q, its job) holds; it is
     claimed for `slot` when claim(q, slot) succeeds, and otherwise stays the caller's to give back. */
  virtual std::optional<queued_partition> take(
      const std::function<bool(const queued_partition&, const shm::job_record&)>& fits) = 0;
  /* The taken partition now has its slot (QUEUED → SLOTTED); false: its job changed meanwhile. */
  virtual bool claim(const queued_partition& q, std::uint32_t slot) = 0;
  /* A claimed partition that could not start waits again. */
  virtual void give_back(const queued_partition& q) = 0;
  /* A partition whose synthesis ended its worker: the job fails (true) once that happened `max` times. */
  virtual bool refuse_poison(shm::job_ref j, std::uint32_t partition, unsigned max, const std::string& last) = 0;
  /* Forgets a job's waiting partitions (it failed or was evicted). */
  virtual void drop(shm::job_ref j) = 0;
  virtual std::size_t size() const = 0;
  virtual std::size_t count(shm::priority p) const = 0;
};

/* A key that cannot be loaded: its active jobs fail with why and leave the queue; changed(each of them). */
inline void fail_jobs_of_key(shm::job_table& jobs, job_queue& queue, std::string_view key_id, const std::string& why,
                             const std::function<void(shm::job_ref)>& changed) {
  jobs.for_each([&](shm::job_ref j, const shm::job_record& rec) {
    if (shm::job_word_state(rec) != shm::job_state::active || shm::field_text(rec.key_id) != key_id) return;
    (void)jobs.fail_job(j, "the key cannot be loaded: " + why);
    queue.drop(j);
    changed(j);
  });
}

}  // namespace cuzk::server
