// cuzk-gpu-server: one Boost.Asio io_context thread owns the ROUTER socket
// (through ZMQ_FD), the signals and the timers, and is the only writer of
// the job table; one prover thread runs the backend. The region is the
// truth: queues are rebuilt from it at start, and a periodic scan finds
// FILLED slots and dead workers whatever messages were lost.
#pragma once

#include <utility>  // before Boost 1.74 asio: its awaitable.hpp uses std::exchange without it

#include <boost/asio.hpp>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>
#include <zmq.hpp>

#include "backend/backend.hpp"
#include "job/key_cache.hpp"
#include "proto/message.hpp"
#include "scheduler.hpp"
#include "shm/job_table.hpp"
#include "shm/lease.hpp"
#include "shm/region.hpp"
#include "shm/slot_table.hpp"

namespace cuzk::server {

struct server_options {
  std::string pool;
  std::string hugepage_dir;
  std::string endpoint;  // ipc:///run/cuzk/cuzk.sock
  std::string backend = "auto";
  int threads = 0;
  std::chrono::milliseconds tick{100};  // region scan: dead workers, FILLED slots, wait timeouts
  std::chrono::milliseconds hung_timeout{60000};
  std::vector<std::string> keys;  // .zkey files loaded and parsed before serving  // a slot-holding worker silent this long is killed
};

/* A counter per kind of bad frame, for status and tests. */
struct server_counters {
  std::uint64_t malformed = 0, proofs = 0, failed = 0, submits = 0, stale = 0;
};

class server {
 public:
  /* Opens the pool (never creates it), takes the server lease (reclaims and
     reconciles what a previous server left), binds the endpoint. Throws
     std::runtime_error with a sentence for the operator. */
  explicit server(server_options opt);
  ~server();
  /* Runs until SIGTERM/SIGINT: then stops accepting, finishes the proof in
     flight, and returns 0. */
  int run();

 private:
  struct worker {
    std::string identity;
    std::string name;
    std::int32_t pid = 0;
    std::uint64_t capacity = 0;
    std::optional<std::pair<std::uint64_t, std::uint64_t>> busy;  // (slot, gen)
    std::chrono::steady_clock::time_point seen;
  };
  struct waiter {
    std::string identity;
    std::uint64_t request_id;
    std::string job_id;
    std::chrono::steady_clock::time_point deadline;
  };
  struct proof_job {
    std::uint64_t slot, gen;
    shm::job_ref job;
    std::uint32_t partition;
    std::shared_ptr<const groth16::proving_key> pk;  // resolved on the io thread (key_cache is not shared)
    std::optional<groth16::blinding> rs;
  };
  struct proof_done {
    proof_job what;
    std::vector<std::uint8_t> result;  // empty on error
    std::string error;
    std::uint64_t start_ns, end_ns;
    groth16::prove_timings timings;
  };

  // server.cpp: sockets, loop, signals
  void arm_socket();
  void drain();
  void on_frame(const std::string& identity, zmq::message_t& frame);
  bool send(const std::string& identity, const proto::message& m);
  void reply_error(const std::string& identity, std::uint64_t request_id, proto::error_code code,
                   const std::string& text);
  void arm_tick();
  void on_tick();
  void stop_accepting();

  // server_jobs.cpp: client requests
  void on_submit(const std::string& id, std::uint64_t rq, const proto::submit& s);
  void on_status(const std::string& id, std::uint64_t rq, const proto::status_request& s);
  void on_fetch(const std::string& id, std::uint64_t rq, const proto::fetch& f);
  void on_wait(const std::string& id, std::uint64_t rq, const proto::wait_request& w);
  /* Replies with the proofs (done) or the status (failed); false while the job runs. */
  bool answer_finished(const std::string& id, std::uint64_t rq, shm::job_ref j);
  void notify_waiters(shm::job_ref j);
  void drop_unused_key(const std::string& key_id);
  proto::job_status job_status_of(shm::job_ref j, const shm::job_record& rec) const;

  // server_dispatch.cpp: workers, slots, proofs
  void rebuild_queues(bool log = true);
  void on_ready(const std::string& id, const proto::ready& r);
  void on_filled(const std::string& id, const proto::filled& f);
  void on_synth_failed(const std::string& id, const proto::synth_failed& f);
  void on_heartbeat(const std::string& id, const proto::heartbeat& h);
  void on_bye(const std::string& id, const proto::bye& b);
  void reap_dead();
  void kill_hung();
  void dispatch();
  void assign_work();
  void start_proofs();
  void prover_loop();
  void on_proof_done(proof_done d);
  std::optional<std::uint32_t> class_for_job(const shm::job_record& rec);

  server_options opt_;
  std::unique_ptr<shm::region> region_;
  std::unique_ptr<shm::lease> lease_;
  std::unique_ptr<shm::slot_table> slots_;
  std::unique_ptr<shm::job_table> jobs_;
  std::unique_ptr<prover_backend> backend_;
  job::key_cache keys_;

  boost::asio::io_context io_;
  boost::asio::posix::stream_descriptor zfd_;
  boost::asio::signal_set signals_;
  boost::asio::steady_timer tick_;
  zmq::context_t ctx_;
  zmq::socket_t router_;

  scheduler queue_;
  std::map<std::uint32_t, worker> workers_;  // by lease index
  std::vector<waiter> waiters_;
  server_counters counters_;
  bool accepting_ = true;
  bool stopping_ = false;

  // prover thread hand-off
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<proof_job> to_prove_;
  bool prover_busy_ = false;  // io thread only
  bool prover_exit_ = false;
  std::thread prover_;
};

}  // namespace cuzk::server
