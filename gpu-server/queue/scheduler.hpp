// The queue of partitions waiting for a worker: the priority classes in their
// rank (util/priority.hpp: critical, high, normal, low); FIFO (submission
// order) within a class. The job table is the truth: a restarted server
// refills this from it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>
#include <tuple>

#include "shm/job_table.hpp"
#include "util/priority.hpp"

namespace cuzk::server {

struct queued_partition {
  priority prio = priority::normal;
  std::uint64_t seq = 0;  // the job's submission order
  shm::job_ref job;
  std::uint32_t partition = 0;

  auto key() const { return std::tuple(rank(prio), seq, job.index, partition); }
  friend bool operator<(const queued_partition& x, const queued_partition& y) { return x.key() < y.key(); }
};

class scheduler {
 public:
  void push(const queued_partition& q) { queue_.insert(q); }
  /* The first partition, in priority then FIFO order, for which fits(q)
     holds; it leaves the queue. */
  template <class F>
  std::optional<queued_partition> pop_first(F&& fits) {
    for (auto it = queue_.begin(); it != queue_.end(); ++it)
      if (fits(*it)) {
        auto q = *it;
        queue_.erase(it);
        return q;
      }
    return std::nullopt;
  }
  /* Drops every partition of a job (it failed or was evicted). */
  void drop(shm::job_ref j) {
    std::erase_if(queue_, [&](const queued_partition& q) { return q.job == j; });
  }
  bool contains(const queued_partition& q) const { return queue_.count(q) != 0; }
  void erase(const queued_partition& q) { queue_.erase(q); }
  bool contains(shm::job_ref j, std::uint32_t partition) const {
    for (const auto& q : queue_)
      if (q.job == j && q.partition == partition) return true;
    return false;
  }
  std::size_t size() const { return queue_.size(); }
  std::size_t count(priority p) const {
    return static_cast<std::size_t>(
        std::count_if(queue_.begin(), queue_.end(), [&](const auto& q) { return q.prio == p; }));
  }
  void clear() { queue_.clear(); }

 private:
  std::set<queued_partition> queue_;
};

}  // namespace cuzk::server
