// The crash loop on the real binaries: one service (pool, cuzk-gpu-server,
// a cuzk-synth-worker, a second one for the worker_died workload) kept alive
// across kills, only the killed process restarted; batches of tiny jobs flow
// through it while one process is armed (CUZK_FAILPOINT=NAME:K) at a random
// hit K in [1, H], H counted first (CUZK_FAILPOINT_COUNT). A process that
// dies is restarted at once; after every batch the invariants are checked:
// every job done with a valid proof of its own inputs (or failed, for the
// jobs meant to fail), results stable across the next kill, no partition
// synthesized more often than workers died, every slot FREE.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "../service/harness.hpp"
#include "shm/layout.hpp"
#include "shm/region.hpp"
#include "failpoints.hpp"

namespace cuzk::test::crash {

struct loop_stats {
  std::uint64_t hits = 0;        // H: hits of the point in one calibration round
  int wanted = 0;                // kills asked for, from H
  int kills = 0;                 // deaths of the armed process at the point
  int misses = 0;                // rounds without a kill (the armed hit not reached yet, or a race lost)
  int batches = 0, jobs = 0;     // checked batches and jobs
  int other_deaths = 0;          // helper processes killed at their own failpoint
  int most_kills_per_check = 0;  // 1 unless a restarted process died again before the check
  double seconds = 0;            // wall time of the kill rounds (calibration excluded)
  double cpu_seconds = 0;        // CPU time of the test and every process it started, same rounds
};

class crash_loop {
 public:
  explicit crash_loop(std::uint64_t seed);
  ~crash_loop();

  /* Calibrates (H), then kills at `p` until kills(H) kills were checked.
     Failures are reported with ADD_FAILURE (gtest) and end the loop. */
  loop_stats run(const crash_point& p, const std::function<int(std::uint64_t)>& kills);

 private:
  using env = std::map<std::string, std::string>;
  /* kill: at a random hit in [1, H]; kill_next: the same, but counted from
     the end of the round the process restarts in (its recovery's hits first). */
  enum class arm { none, count, kill, kill_next, prelude };

  struct job {
    std::string id;
    std::string inputs;  // native jobs
    std::string wtns;    // jobs meant to fail: a witness file
    bool bad = false;
    std::string proof, pub;  // once done
    bool finished = false, failed = false;
    std::string error;
  };

  // processes
  void start_server(arm a);
  void wait_server_up();
  void start_worker(std::size_t i, arm a);
  void retire_worker();
  void stop_server();
  void stop_worker(std::size_t i);
  void supervise();
  /* worker_died, a worker's point: the helper stalls where it would die; the server is held (SIGSTOP) while the
     helper is killed there and the armed worker takes its lease, so that the worker's lease take, not the
     server's reaper, reclaims the slot, however slow a loaded machine makes the worker's start. */
  void hand_over_stalled_helper();
  void on_death(std::unique_ptr<process>& p, kind k, std::size_t index);
  env env_for(arm a, kind k);

  // jobs
  std::vector<job> make_batch(int good, int bad);
  void submit(const job& j);
  bool run_batch(std::vector<job>& batch, std::chrono::seconds limit);
  bool check_quiescent(std::vector<job>& batch);
  /* From the pool itself: every slot FREE, no record ACTIVE or RESERVED ("" if so). */
  std::string unsettled() const;
  const shm::job_record* record_of(const std::string& id) const;
  bool fetch(job& j);
  void helper_ready(std::size_t workers);

  // rounds
  std::uint64_t calibrate();
  bool round();

  std::uint64_t seed_;
  std::mt19937_64 rng_;
  std::string circuit_ = "chain:size=2";
  std::unique_ptr<service> svc_;
  std::unique_ptr<shm::region> region_;  // read by the checks (no process per check)
  std::unique_ptr<client::connection> conn_;
  std::unique_ptr<process> server_;
  std::vector<std::unique_ptr<process>> workers_;   // [0] regular; [2] helper/target for worker_died
  std::vector<std::unique_ptr<process>> retiring_;  // SIGTERMed, reaped when they exit
  const crash_point* point_ = nullptr;
  std::uint64_t hits_ = 1;
  arm server_arm_ = arm::none, worker_arm_ = arm::none, helper_arm_ = arm::none;
  pid_t target_ = -1;
  std::uint64_t armed_k_ = 1;
  long skip_adjust_ = 0;     // learnt: hits a recovery makes beyond the rest of its round
  bool armed_next_ = false;  // the target runs armed with kill_next
  int unchecked_kills_ = 0;
  int worker_sigkills_ = 0;  // since the last check
  std::string count_file_, helper_count_file_;
  bool helper_stalls_ = false;  // the helper runs with a stall at its prelude point, not yet handed over
  std::uint64_t next_job_ = 0, next_name_ = 0;
  std::vector<job> previous_;
  loop_stats stats_;
  bool failed_ = false, calibrating_ = false;
  bool worker_wanted_ = false;  // the regular worker was retired for a server start that has not come up yet
};

}  // namespace cuzk::test::crash
