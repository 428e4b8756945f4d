// cuzk-synth-worker: takes a lease on the pool, announces itself (Ready) to
// the server, synthesizes each assigned job partition straight into its slot
// and reports it (Filled). It heartbeats while synthesizing, re-announces
// until a (restarted) server answers, and finishes the synthesis in hand
// before it exits on SIGTERM.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <zmq.hpp>

#include "job/key_cache.hpp"
#include "proto/message.hpp"
#include "shm/job_table.hpp"
#include "shm/lease.hpp"
#include "shm/region.hpp"
#include "shm/slot_table.hpp"

namespace cuzk::worker {

struct worker_options {
  std::string pool;
  std::string hugepage_dir;
  std::string endpoint;
  std::string name = "synth-worker";
  bool checksum = false;  // XXH3 over the payload at fill (checked by tests)
  std::chrono::milliseconds announce{1000};  // Ready / Heartbeat period
};

/* What one synthesis produced: a Filled or a SynthFailed message. */
struct synth_outcome {
  proto::body message;
};

class worker {
 public:
  /* Throws std::runtime_error with a sentence for the operator. */
  explicit worker(worker_options opt);
  ~worker();
  /* Until SIGTERM/SIGINT (set by the caller through stop_flag()). */
  int run();
  static std::atomic<bool>& stop_flag();

 private:
  void send(const proto::body& b);
  void on_message(const proto::message& m);
  void start_next();
  synth_outcome synthesize(const proto::assign& a);

  worker_options opt_;
  std::unique_ptr<shm::region> region_;
  std::unique_ptr<shm::lease> lease_;
  std::unique_ptr<shm::slot_table> slots_;
  std::unique_ptr<shm::job_table> jobs_;
  job::key_cache keys_;
  zmq::context_t ctx_;
  zmq::socket_t sock_;
  std::deque<proto::assign> pending_;
  std::optional<proto::assign> current_;
  std::future<synth_outcome> running_;
  std::uint64_t capacity_ = 0;
};

}  // namespace cuzk::worker
