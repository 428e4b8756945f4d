// cuzk-synth-worker: takes a lease on the pool, announces itself (Ready) to
// the server, synthesizes each assigned job partition straight into its slot
// and reports it (Filled). A heartbeat thread refreshes the lease heartbeat
// only while the worker makes progress (liveness.hpp), so the server kills a
// worker whose synthesis hangs. A synthesis that passes its deadline gives
// its slot back (partition requeued, not failed) and the worker exits 3. On
// SIGTERM/SIGINT it takes no more work, waits for the synthesis in hand up to
// the stop timeout (a second signal: not at all), gives back what it holds
// and exits 0.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <zmq.hpp>

#include "job/key_cache.hpp"
#include "job/synthesize.hpp"
#include "proto/message.hpp"
#include "shm/job_table.hpp"
#include "shm/lease.hpp"
#include "shm/region.hpp"
#include "shm/slot_table.hpp"

namespace cuzk::worker {

/* Exit statuses of cuzk-synth-worker. */
inline constexpr int exit_stopped = 0;   // SIGTERM/SIGINT
inline constexpr int exit_error = 1;     // cannot start (pool, lease) or a fatal error
inline constexpr int exit_deadline = 3;  // a synthesis passed its deadline; its slot was given back

struct worker_options {
  std::string pool;
  std::string hugepage_dir;
  std::string endpoint;
  std::string name = "synth-worker";
  bool checksum = false;                        // XXH3 over the payload at fill (checked by tests)
  std::chrono::milliseconds announce{1000};     // Ready / Heartbeat period
  std::chrono::milliseconds synth_deadline{0};  // 0: default_synth_deadline(the key's domain)
  std::chrono::milliseconds stop_timeout{10000};
  std::chrono::milliseconds progress_grace{10000};  // liveness.hpp
  job::sandbox_limits generator;  // an installed circuit's witness generator (its deadline and CPU time: the job's)
};

/* 60 s + 20 µs per element of the domain (2^16: 61 s, 2^20: 81 s, 2^24:
   6.6 min). docs/benchmarks.md measures about 1 µs per row of synthesis
   (chain, 2^14, 2 busy cores) and 0.3 s to read and parse a 2^16 key (about
   4.6 µs per element; a worker parses a key on its first job): 20 µs is
   about 3.5 times their sum, and the 60 s cover a loaded host. */
std::chrono::nanoseconds default_synth_deadline(std::uint64_t domain);

/* What one synthesis produced: a Filled, SynthFailed or Aborted message
   (none when its slot was given back). */
struct synth_outcome {
  std::optional<proto::body> message;
};

class worker {
 public:
  /* Throws std::runtime_error with a sentence for the operator. */
  explicit worker(worker_options opt);
  ~worker();
  /* Until SIGTERM/SIGINT (counted by on_signal()); the exit status. */
  int run();
  /* Async-signal-safe: the first call stops the worker, the second stops it at once. */
  static void on_signal() noexcept;

 private:
  enum class synth_state : int { idle, running, finishing, given_back };

  bool send(const proto::body& b);
  void on_message(const proto::message& m);
  void start_next();
  synth_outcome synthesize(const proto::assign& a);
  /* running → finishing (the synthesis thread, before it writes the slot
     table); false when the slot was given back meanwhile. */
  bool finish();
  /* Any thread: running → given_back, fences the payload and surrenders the
     lease's slots (requeued as after a crash). false when no synthesis is
     running (idle, or already writing its result). The caller exits. */
  bool give_back(const std::string& why);
  void watch();
  [[noreturn]] void quit(int status);

  worker_options opt_;
  std::unique_ptr<shm::region> region_;
  std::unique_ptr<shm::lease> lease_;
  std::unique_ptr<shm::slot_table> slots_;
  std::unique_ptr<shm::job_table> jobs_;
  job::key_cache keys_;
  zmq::context_t ctx_;
  zmq::socket_t sock_;
  zmq::socket_t monitor_;  // connection events of sock_
  std::deque<proto::assign> pending_;
  std::optional<proto::assign> current_;
  std::future<synth_outcome> running_;
  std::uint64_t capacity_ = 0;

  // Shared with the heartbeat thread (and the synthesis thread).
  job::progress progress_;
  std::atomic<synth_state> state_{synth_state::idle};
  std::atomic<std::uint64_t> slot_{0}, start_ns_{0}, deadline_ns_{0}, loop_ns_{0};
  std::mutex watch_m_;
  std::condition_variable watch_cv_;  // wakes the heartbeat thread to quit (an exit never waits out its period)
  bool quit_watch_ = false;
  std::thread watcher_;
};

}  // namespace cuzk::worker
