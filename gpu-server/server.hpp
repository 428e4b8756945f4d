// cuzk-gpu-server: one Boost.Asio io_context thread, the loop, owns the
// sockets (local clients through client_listener, network clients through
// network_listener, workers through a ROUTER and its ZMQ_FD), the signals and the timers, and only routes: each frame
// goes to the part it is for (client_requests, the job directory, uploads, workers), and the parts' events to the parts
// that wait for them (docs/architecture.md). The parts are wired once at start, one function each; a cluster node's
// differ only there: its job directory is the database's, and its claims tick beside the queue. The loop never reads
// files, hashes, parses keys or counts circuits: the preparation pool does
// (key_store, preparation) and posts the results back; the provers prove on
// threads of their own. The region is the truth: the job queue is rebuilt
// from it at start, and a periodic scan finds FILLED slots and dead workers
// whatever messages were lost.
#pragma once

#include <utility>  // before Boost 1.74 asio: its awaitable.hpp uses std::exchange without it

#include <atomic>
#include <boost/asio.hpp>
#include <boost/asio/thread_pool.hpp>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <zmq.hpp>

#include "backend/backend.hpp"
#include "listeners/client_listener.hpp"
#include "requests/client_requests.hpp"
#include "admin/node_status.hpp"
#include "cluster/cluster_claims.hpp"
#include "cluster/cluster_job_directory.hpp"
#include "cluster/cluster_link.hpp"
#include "requests/job_directory.hpp"
#include "queue/job_queue.hpp"
#include "keys/key_store.hpp"
#include "admin/metrics.hpp"
#include "admin/metrics_http.hpp"
#include "admin/timeline.hpp"
#include "net/envelope_io.hpp"
#include "listeners/http_identities.hpp"
#include "listeners/network_listener.hpp"
#include "admin/notifier.hpp"
#include "outbox.hpp"
#include "provers/proof_job.hpp"
#include "provers/provers.hpp"
#include "router_reader.hpp"
#include "admin/throughput.hpp"
#include "server_options.hpp"
#include "shm/job_table.hpp"
#include "shm/lease.hpp"
#include "shm/region.hpp"
#include "shm/slot_table.hpp"
#include "requests/uploads.hpp"
#include "workers/workers.hpp"

namespace cuzk::server {

class server final : private outbox {
 public:
  /* Opens the pool (never creates it), takes the server lease (reclaims and
     reconciles what a previous server left), binds the endpoint. Throws
     std::runtime_error with a sentence for the operator. */
  explicit server(server_options opt);
  ~server() override;
  /* Runs until SIGTERM/SIGINT: then stops accepting, finishes the proof in
     flight, and returns 0. After a sticky device error it returns
     exit_device_lost (75) at once, the slot it was proving FILLED again. */
  int run();

 private:
  // server.cpp: sockets, routing, signals, tick
  bool send(const address& to, const proto::message& m) override;
  void drain();  // the workers' socket
  void on_worker_frame(const net::routed& r);
  void on_client(std::uint64_t conn, const net::peer_credentials& cred, std::vector<std::vector<std::uint8_t>> frames);
  void on_network(std::uint64_t conn, const std::string& name, std::vector<std::vector<std::uint8_t>> frames);
  /* A decoded frame to the part it is for; a client request on the workers' socket (or the reverse) is refused. */
  void route(const peer& from, const net::decoded& m);
  void route_spoken_for(const peer& gateway, const proto::message& m);
  void watch_signals();
  void hold_proving(bool hold);  // io thread: proving held (SIGUSR1) or resumed (SIGUSR2)
  void stop_accepting();
  void arm_tick();
  void on_tick();
  std::string status_line() const;

  // server.cpp: the parts wired, one function each, in the order the constructor calls them
  void wire_keys();       // the key store and the uploads' spool
  void wire_queue();      // the node's job queue; a cluster node's line to the database and its claims
  void wire_listeners();  // the workers' ROUTER, the local and network clients, the HTTP endpoint
  void wire_workers();
  void wire_requests();  // the node's status, the job directory (the node's table or the cluster's), client requests
  void wire_provers();
  /* What the parts that serve a client's jobs share (once the pool and the keys are open). */
  node_context shared() { return {opt_, state_, *jobs_, *slots_, *keys_, *this, io_}; }
  /* New work may start: FREE slots to idle workers, FILLED slots to idle provers. */
  void dispatch();
  /* A job finished, failed or was dropped: its Waits are answered, a cluster job reported. */
  void job_changed(shm::job_ref j);
  /* A job failed outside a proof (poison input, a worker's synthesis error): counted, dropped, its Waits answered. */
  void job_failed(shm::job_ref j);

  // server_metrics.cpp: /metrics, /healthz, /readyz, /trace.json and /timeline (query: since=SECONDS)
  /* /timeline and /trace.json show every client's jobs: only to a local peer whose uid is an operator's. */
  http_reply on_http(std::string_view path, std::string_view query, std::optional<std::uint32_t> peer_uid) const;
  std::string metrics_text() const;
  void observe_proof(const proof_done& d, std::uint64_t synth_start, std::uint64_t synth_end);
  /* A worker's Filled: its synthesis onto the timeline, once a (slot, generation). */
  void note_synthesis(const peer& p, const proto::filled& f);
  // server_timeline.cpp: a proof's phase spans onto the timeline; /trace.json and /timeline
  void note_proof_spans(const proof_done& d);
  http_reply timeline_reply(std::string_view path, std::string_view query) const;

  server_options opt_;
  loop_state state_;
  server_counters counters_;
  metrics::proof_series series_;
  throughput throughput_;
  timeline timeline_{std::chrono::minutes(std::max(1u, opt_.timeline_minutes))};
  std::vector<std::uint64_t> synth_noted_;  // per slot: 1 + the generation whose synthesis is on the timeline
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();

  std::unique_ptr<shm::region> region_;
  std::unique_ptr<shm::lease> lease_;
  std::unique_ptr<shm::slot_table> slots_;
  std::unique_ptr<shm::job_table> jobs_;
  std::unique_ptr<prover_backend> backend_;

  notifier notify_;
  boost::asio::io_context io_;
  boost::asio::steady_timer tick_;
  zmq::context_t ctx_;
  zmq::socket_t wrouter_;
  std::unique_ptr<router_reader> workers_in_;
  boost::asio::thread_pool prep_;
  boost::asio::thread_pool replies_{1};  // proof replies decode and format results off the loop
  std::unique_ptr<client_listener> clients_;
  std::unique_ptr<network_listener> network_;  // tcp:// clients, when configured
  std::unique_ptr<http_identities> http_ids_;  // the uids of the API keys gateways speak for
  std::unique_ptr<metrics_http> http_;
  std::thread signal_thread_;
  std::atomic<bool> stop_requested_{false}, stop_seen_{false}, exiting_{false};

  // the parts (docs/architecture.md)
  std::unique_ptr<job_queue> queue_;
  std::unique_ptr<key_store> keys_;
  std::unique_ptr<uploads> uploads_;
  std::unique_ptr<workers> workers_;
  std::unique_ptr<node_status> node_;
  std::unique_ptr<job_directory> directory_;  // the node's job table, or a cluster node's database
  std::unique_ptr<client_requests> requests_;
  std::unique_ptr<provers> provers_;
  // a cluster node's (server_options::cluster): its line to the database, its claims, what it refused
  std::unique_ptr<cluster_link> cluster_link_;
  std::unique_ptr<cluster_claims> claims_;
  cluster_counters cluster_counts_;
  bool cluster_hold_ = false;  // proving waits for the first reconciliation (no proof of a claim another node took)
};

}  // namespace cuzk::server
