// cuzk-gpu-server: one Boost.Asio io_context thread owns the two ROUTER
// sockets (clients, workers; through ZMQ_FD), the signals and the timers,
// and is the only writer of the job table; it never reads files, hashes,
// parses keys or counts circuits: a small bounded pool does (prepare.cpp)
// and posts the results back. Prover threads, as many as the backend has
// workers (two per GPU), run the backend. The
// region is the truth: queues are rebuilt from it at start, and a periodic
// scan finds FILLED slots and dead workers whatever messages were lost.
#pragma once

#include <utility>  // before Boost 1.74 asio: its awaitable.hpp uses std::exchange without it

#include <boost/asio.hpp>
#include <boost/asio/thread_pool.hpp>
#include <chrono>
#include <filesystem>
#include <set>
#include <atomic>
#include <condition_variable>
#include <span>
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
#include "client_listener.hpp"
#include "fair_queue.hpp"
#include "file_policy.hpp"
#include "metrics.hpp"
#include "metrics_http.hpp"
#include "notifier.hpp"
#include "net/peer.hpp"
#include "job/key_cache.hpp"
#include "proto/limits.hpp"
#include "proto/message.hpp"
#include "scheduler.hpp"
#include "shm/job_table.hpp"
#include "shm/lease.hpp"
#include "shm/region.hpp"
#include "shm/slot_table.hpp"

namespace cuzk::server {

/* The jobs of a status reply stop at this many bytes (the rest are counted as omitted). */
inline constexpr std::size_t status_job_bytes = proto::max_frame_bytes / 2;

struct server_options {
  std::string pool;
  std::string hugepage_dir;
  std::string endpoint;         // clients: ipc:///run/cuzk/cuzk.sock, 0660 in client_group
  std::string worker_endpoint;  // workers: 0600, or 0660 in worker_group (default: endpoint + ".worker")
  std::string client_group, worker_group;
  std::vector<std::filesystem::path> keys_dirs;     // .zkey files clients may name by path
  std::vector<std::filesystem::path> witness_dirs;  // .wtns/.r1cs files clients may name
  backend_options backend;  // kind, threads, gpus, workers, device memory, --no-register (backend/backend.hpp)
  unsigned max_synth_crashes = 3;  // syntheses of one partition that may end their worker before its job fails
  unsigned device_attempts = 3;    // proofs of one slot that a transient device error may fail before its job fails
  std::chrono::milliseconds tick{100};  // region scan: dead workers, FILLED slots, wait timeouts
  std::chrono::milliseconds hung_timeout{60000};  // a slot-holding worker silent this long is killed
  std::vector<std::string> keys;  // .zkey files loaded and parsed before serving; clients may name them
  std::chrono::seconds retention{24 * 3600};  // an unfetched finished job is kept at least this long
  std::uint32_t max_jobs_per_client = 256;    // job-table entries per uid: unfinished or finished and not fetched
  std::uint32_t max_waits_per_client = 64;    // pending Waits per uid
  std::uint32_t max_fetches_per_client = 4;   // replies with proofs being built per uid (beyond: busy)
  unsigned prepare_threads = 2;
  std::uint32_t max_preparing = 32;  // Submits waiting for or in preparation (beyond: busy)
  std::uint32_t max_preparing_per_client = 4;  // of which one uid's
  client_limits clients;             // connections per uid and in total, handshake time, unread replies
  std::chrono::milliseconds stop_grace{5000};  // SIGTERM not acted on by the loop within this: the process exits
  std::vector<uid_t> operators;      // uids that see every job (root and the server's own uid always do)
  std::string metrics_address;       // host:port of the HTTP metrics endpoint (e.g. 127.0.0.1:9464); empty: none
  /* start with proving held: synthesis fills slots, FILLED slots wait; SIGUSR2 resumes, SIGUSR1 holds again */
  bool hold_proving = false;
};

/* A counter per kind of bad frame, for status and tests. */
struct server_counters {
  std::uint64_t malformed = 0, proofs = 0, failed = 0, submits = 0, stale = 0, refused = 0;
};

/* The connection a frame came on: identity (a worker's routing id, or the
   number client_listener gave a client's connection), socket and credentials. */
struct peer {
  std::string identity;
  net::peer_credentials cred;
  bool worker_socket = false;
};

class server {
 public:
  /* Opens the pool (never creates it), takes the server lease (reclaims and
     reconciles what a previous server left), binds the endpoint. Throws
     std::runtime_error with a sentence for the operator. */
  explicit server(server_options opt);
  ~server();
  /* Runs until SIGTERM/SIGINT: then stops accepting, finishes the proof in
     flight, and returns 0. After a sticky device error it returns
     exit_device_lost (75) at once, the slot it was proving FILLED again. */
  int run();

 private:
  struct worker {
    std::string identity;
    std::string name;
    std::int32_t pid = 0;
    uid_t uid = 0;
    std::uint64_t capacity = 0;
    std::optional<std::pair<std::uint64_t, std::uint64_t>> busy;  // (slot, gen)
    std::chrono::steady_clock::time_point seen;
  };
  struct waiter {
    std::string identity;
    uid_t uid;
    std::uint64_t request_id;
    shm::job_ref job;
    std::chrono::steady_clock::time_point deadline;
  };
  /* What the pool made of a Submit: the key and the job description, or the error to answer. */
  struct prepared {
    std::string key_id;
    job::any_key pk;
    std::string spec_json;
    std::optional<proto::error_code> code;
    std::string error;
  };
  struct proof_job {
    std::uint64_t slot, gen;
    shm::job_ref job;
    std::uint32_t partition;
    job::any_key pk;  // resolved on the io thread (key_cache is not shared)
    std::string key_id;
    std::optional<std::string> blinding;  // "R,S", checked below the key's r at Submit
  };
  struct proof_done {
    proof_job what;
    std::vector<std::uint8_t> result;  // empty on error
    std::string error;
    std::uint64_t start_ns, end_ns;
    groth16::prove_timings timings;
    double stage = 0;                 // heap staging (--no-register)
    std::optional<bool> device_fault;  // a device error: false transient (retried), true sticky (the server exits)
    double verify = 0;                 // seconds of the self-verification
    int gpu = -1;                      // the device that proved it (prove_output::gpu), -1 on the CPU
    bool streamed = false;             // its key's bases were streamed to the GPU
  };

  // server.cpp: sockets, loop, signals
  void arm_socket();
  void drain();
  void on_client(std::uint64_t conn, const net::peer_credentials& cred, std::vector<std::vector<std::uint8_t>> frames);
  void on_client_closed(std::uint64_t conn);
  void on_frame(const peer& from, std::span<const std::uint8_t> frame);
  void watch_signals();
  void hold_proving(bool hold);  // io thread: proving held (SIGUSR1) or resumed (SIGUSR2)
  bool send(const std::string& identity, const proto::message& m, bool workers = false);
  void reply_error(const std::string& identity, std::uint64_t request_id, proto::error_code code,
                   const std::string& text, bool workers = false);
  bool is_operator(uid_t uid) const;
  void arm_tick();
  void on_tick();
  std::string status_line() const;
  void stop_accepting();

  // server_jobs.cpp: client requests
  void on_submit(const peer& p, std::uint64_t rq, const proto::submit& s);
  /* Why a Submit is refused without reading any file (paths outside the allowed directories), or nullopt. */
  std::optional<std::string> precheck(const proto::submit& s) const;
  /* The next queued Submit, one uid after another, while a preparation thread is free. */
  void start_preparing();
  /* How many job-table entries (unfinished, or finished and not fetched) a uid holds. */
  std::uint32_t entries_of(uid_t uid) const;
  /* The per-client entry limit, never more than half the table: a full table is never one client's doing. */
  std::uint32_t entry_limit() const;
  void on_prepared(const peer& p, std::uint64_t rq, const proto::submit& s, std::array<std::uint8_t, 16> digest,
                   prepared r);
  void on_status(const peer& p, std::uint64_t rq, const proto::status_request& s);
  void on_fetch(const peer& p, std::uint64_t rq, const proto::fetch& f);
  void on_wait(const peer& p, std::uint64_t rq, const proto::wait_request& w);
  /* The job this client may see: its own (operators: anyone's, job_lookup.hpp),
     or nullopt after replying unknown_job (an operator: or that several uids have the id). */
  std::optional<shm::job_ref> find_job(const peer& p, std::uint64_t rq, const std::string& job_id,
                                       std::optional<std::uint32_t> owner);
  /* Replies with the proofs (done; built off the loop) or the status
     (failed); false while the job runs. uid: whose fetch it is, for the bound. */
  bool answer_finished(const std::string& id, uid_t uid, std::uint64_t rq, shm::job_ref j);
  void notify_waiters(shm::job_ref j);
  void drop_unused_key(const std::string& key_id);
  proto::job_status job_status_of(shm::job_ref j, const shm::job_record& rec) const;

  // prepare.cpp: the work a Submit needs that must not run on the loop
  prepared prepare(const proto::submit& s, const net::peer_credentials& who);
  job::any_key resolve_key(const std::string& zkey, const net::peer_credentials& who,
                                                          std::string& key_id);
  /* May this client name the key by its id? (key_mu_ held) */
  bool may_name_key(const net::peer_credentials& who, const std::string& key_id) const;
  /* The parsed key when the loop has it; otherwise asks the pool to parse it and returns null. */
  job::any_key ready_key(const std::string& key_id);
  /* A key parsed before serving without its content check (key_cache::get(id,
     false)): checked on the preparation pool while the server serves; its
     jobs are proven only once the check passed, and fail if it does not. */
  void verify_key(const std::string& key_id, job::any_key pk);
  void key_loaded(const std::string& key_id, job::any_key pk, const std::string& error);
  void trim_ready_keys();

  // server_dispatch.cpp: workers, slots, proofs
  void rebuild_queues(bool log = true);
  /* The lease a worker message may speak for: held by a worker process whose pid is the sender's. */
  bool lease_of_sender(const peer& p, std::uint32_t lease) const;
  /* The lease registered for this connection by its Ready, if the sender still holds it. */
  std::optional<std::uint32_t> sender_lease(const peer& p) const;
  void on_ready(const peer& p, const proto::ready& r);
  void on_filled(const peer& p, const proto::filled& f);
  void on_synth_failed(const peer& p, const proto::synth_failed& f);
  void on_heartbeat(const peer& p, const proto::heartbeat& h);
  void on_bye(const peer& p, const proto::bye& b);
  proto::assign assign_message(std::uint64_t slot, std::uint64_t gen, shm::job_ref j, std::uint32_t partition,
                               const shm::job_record& rec) const;
  void reap_dead();
  void kill_hung();
  void dispatch();
  void assign_work();
  std::optional<std::uint64_t> next_filled();
  std::optional<proof_job> proof_of(std::uint64_t slot);
  void start_proofs();
  void prover_loop();
  void on_proof_done(proof_done d);
  void on_proof_result(const proof_done& d);
  /* A device error: the slot goes back to FILLED; retried, failed after device_attempts, or (sticky) the server exits. */
  void on_device_fault(const proof_done& d);
  std::optional<std::uint32_t> class_for_job(const shm::job_record& rec);

  // server_metrics.cpp: /metrics, /healthz, /readyz
  http_reply on_http(std::string_view path) const;
  std::string metrics_text() const;
  void observe_proof(const proof_done& d, std::uint64_t synth_start, std::uint64_t synth_end);

  server_options opt_;
  std::unique_ptr<shm::region> region_;
  std::unique_ptr<shm::lease> lease_;
  std::unique_ptr<shm::slot_table> slots_;
  std::unique_ptr<shm::job_table> jobs_;
  std::unique_ptr<prover_backend> backend_;

  // the preparation pool's: key_cache is not thread-safe and loads can take seconds
  std::mutex key_mu_;
  job::key_cache keys_;
  file_policy key_files_, witness_files_;
  std::map<std::string, std::string> preloaded_;  // --key path → key id (read-only after start)
  std::map<std::string, std::string> key_by_file_;  // job::file_identity of a key file → key id (under key_mu_)
  // key id → the client key files (path → job::file_identity) it was loaded from (under key_mu_)
  std::map<std::string, std::map<std::string, std::string>> key_files_of_;

  // the loop's
  std::map<std::string, job::any_key> ready_keys_;
  std::set<std::string> loading_keys_;
  struct submission {
    peer p;
    std::uint64_t rq;
    proto::submit s;
    std::array<std::uint8_t, 16> digest;
  };
  fair_queue<uid_t, submission> to_prepare_;  // Submits waiting for a preparation thread, round robin by uid
  std::map<uid_t, std::uint32_t> preparing_by_uid_;  // queued or running
  unsigned prep_running_ = 0;
  std::map<uid_t, std::uint32_t> fetching_by_uid_;  // proof replies being built

  notifier notify_;
  boost::asio::io_context io_;
  boost::asio::posix::stream_descriptor wzfd_;
  boost::asio::steady_timer tick_;
  zmq::context_t ctx_;
  zmq::socket_t wrouter_;
  boost::asio::thread_pool prep_;
  boost::asio::thread_pool replies_{1};  // proof replies decode and format results off the loop
  std::unique_ptr<client_listener> clients_;
  std::thread signal_thread_;
  std::atomic<bool> stop_requested_{false}, stop_seen_{false}, exiting_{false};
  bool held_ = false;  // proving held (io thread only): SIGUSR1 / --hold-proving, SIGUSR2 resumes

  scheduler queue_;
  std::map<std::uint32_t, worker> workers_;  // by lease index
  std::vector<waiter> waiters_;
  server_counters counters_;
  bool accepting_ = true;
  bool stopping_ = false;
  bool serving_ = false;  // run() started the loop
  int exit_code_ = 0;
  metrics::proof_series series_;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  std::unique_ptr<metrics_http> http_;
  std::map<std::pair<std::uint64_t, std::uint64_t>, unsigned> device_failures_;  // (slot, gen) → transient faults

  // prover thread hand-off
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<proof_job> to_prove_;
  unsigned proving_ = 0;  // proofs handed to the provers and not done (io thread only)
  bool prover_exit_ = false;
  std::vector<std::thread> provers_;  // backend_->concurrency() of them
};

}  // namespace cuzk::server
