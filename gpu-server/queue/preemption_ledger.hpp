// How often each job lost work to critical ones (workers.hpp: syntheses
// aborted, provers.hpp: proofs stopped). A job preempted `limit` times is
// preempted no more: it finishes whatever critical work keeps coming.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <utility>

#include "shm/job_table.hpp"

namespace cuzk::server {

class preemption_ledger {
 public:
  unsigned of(shm::job_ref j) const {
    const auto it = n_.find({j.index, j.generation});
    return it == n_.end() ? 0 : it->second;
  }
  bool preemptible(shm::job_ref j, unsigned limit) const { return of(j) < limit; }
  unsigned note(shm::job_ref j) { return ++n_[{j.index, j.generation}]; }
  /* The most preemptions any job still remembered has had. */
  unsigned most() const {
    unsigned m = 0;
    for (const auto& [j, n] : n_) m = std::max(m, n);
    return m;
  }
  /* Forgets the jobs for which live(j) is false (finished, failed, evicted). */
  template <class Live>
  void keep_if(Live&& live) {
    std::erase_if(n_, [&](const auto& kv) { return !live(shm::job_ref{kv.first.first, kv.first.second}); });
  }

 private:
  std::map<std::pair<std::uint64_t, std::uint64_t>, unsigned> n_;  // (index, generation) → preemptions
};

}  // namespace cuzk::server
