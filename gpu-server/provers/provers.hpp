// The provers (DESIGN §5): as many threads as the backend takes proofs at
// once (two per GPU: two workers, or one worker's two lanes), each proving
// one FILLED slot at a time, critical then highest
// priority then oldest job first; a proof is verified before it is stored,
// and a device error puts the slot back to FILLED rather than failing the
// job. reserve_provers per GPU prove only critical slots; a critical slot
// that finds every prover busy stops the lowest-priority, newest proof at
// its next phase boundary (its slot FILLED again, proven later from the
// same synthesis), unless that job was preempted critical max_preemptions
// times already.
#pragma once

#include <utility>  // before Boost 1.74 asio: its awaitable.hpp uses std::exchange without it

#include <boost/asio.hpp>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "backend/backend.hpp"
#include "keys/key_store.hpp"
#include "provers/proof_job.hpp"
#include "server_options.hpp"
#include "shm/job_table.hpp"
#include "shm/lease.hpp"
#include "shm/slot_table.hpp"

namespace cuzk::server {

class provers {
 public:
  struct context {
    const server_options& opt;
    const loop_state& loop;
    prover_backend& backend;
    shm::slot_table& slots;
    shm::job_table& jobs;
    const shm::lease& lease;
    key_store& keys;
    server_counters& counters;
    boost::asio::io_context& io;
  };
  struct hooks {
    std::function<void(shm::job_ref)> job_changed;  // a proof was stored or a job failed
    std::function<void(const proof_done&, std::uint64_t synth_start, std::uint64_t synth_end)> observed;  // metrics
    std::function<void()> device_lost;  // a sticky device error: the server must exit (its slot is FILLED again)
    std::function<void()> finished;     // a proof ended (not after device_lost): the loop goes on
  };
  provers(context c, hooks h);
  ~provers();  // joins the threads (the proofs in flight finish)

  /* FILLED slots to idle provers, unless the loop stops or proving is held. */
  void start();
  unsigned in_flight() const { return proving_; }

 private:
  /* (rank, slot) of the FILLED slot to prove next */
  std::optional<std::pair<int, std::uint64_t>> next_filled();
  /* Stops proofs for critical slots that found no prover. */
  void preempt();
  /* f(slot, its word, its entry, its job's record or the table's error) for every FILLED slot with an entry. */
  template <class F>
  void for_each_filled(F&& f) {
    for (std::uint64_t s = 0; s < c_.slots.size(); ++s) {
      auto w = c_.slots.word(s);
      if (!w || w->state != shm::slot_state::filled) continue;
      auto e = c_.slots.entry(s);
      if (!e) continue;
      f(s, *w, **e, c_.jobs.get(shm::job_of(**e)));
    }
  }
  std::optional<proof_job> proof_of(std::uint64_t slot);
  void run();  // a prover thread
  proof_done prove(proof_job pj);
  void done(proof_done d);
  void stored(const proof_done& d);
  void on_device_error(const proof_done& d);

  context c_;
  hooks h_;
  std::map<std::pair<std::uint64_t, std::uint64_t>, unsigned> device_failures_;  // (slot, gen) → transient faults
  unsigned proving_ = 0;   // handed to the threads and not done (io thread only)
  unsigned reserved_ = 0;  // provers kept for critical slots
  struct in_flight_proof {
    int rank;
    std::uint64_t seq;
    std::shared_ptr<std::atomic<bool>> stop;
    shm::job_ref job;
  };
  std::map<std::uint64_t, in_flight_proof> in_flight_;  // by slot (io thread only)

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<proof_job> to_prove_;
  bool exit_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace cuzk::server
