// What the operator configures (main.cpp, config), the counters every part
// adds to, and the loop's state the parts read.
#pragma once

#include <sys/types.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "backend/backend.hpp"
#include "listeners/client_listener.hpp"
#include "job/key_cache.hpp"
#include "queue/preemption_ledger.hpp"
#include "proto/limits.hpp"

namespace cuzk::server {

/* Network clients (network_listener.hpp). */
struct network_options {
  std::string endpoint;                       // tcp://ADDR:PORT; empty: no network clients
  std::filesystem::path server_key;           // the server's secret key file (cuzk keygen)
  std::filesystem::path clients_dir;          // NAME.pub: the clients the operator authorized
  bool insecure_loopback = false;             // plaintext, and only on a loopback address
  std::chrono::milliseconds handshake{5000};  // a connection that has not proven a key by then is closed
  std::uint32_t max_connections = 1024;       // all network connections; capped below RLIMIT_NOFILE at start
  std::uint32_t max_per_address = 64;         // connections from one source address, before any key is shown
};

/* Files clients stream into the spool (uploads.hpp). */
struct upload_options {
  std::filesystem::path spool_dir;                   // empty: uploads refused
  std::uint64_t max_bytes_per_client = 16ULL << 30;  // spooled, in progress or owned by an unfinished job
  std::uint32_t max_open_per_client = 4;             // uploads in progress
  std::uint32_t max_files_per_client = 64;           // spooled files no job names yet (in progress or complete)
  std::chrono::seconds stall{30};                    // no chunk for this long: dropped, its file removed
  std::chrono::seconds keep{600};                    // complete and named by no Submit for this long: removed
};

/* A cluster of nodes on one PostgreSQL database (cluster/cluster_claims.hpp, cluster/cluster_job_directory.hpp). */
struct cluster_options {
  std::string database;                       // libpq connection string; empty: no cluster
  std::string node;                           // this node's name in the database (default: the host name)
  std::string instance;                       // which node holds the name: "HOST pool POOL (made NS)" (the server's)
  std::chrono::seconds dead_after{60};        // a node silent this long loses its unfinished claims
  std::chrono::milliseconds heartbeat{5000};  // how often this node says it is alive (and checks the others)
  std::chrono::milliseconds poll{1000};       // how often it looks for jobs when no notification came
  bool enabled() const { return !database.empty(); }
};

/* The critical class (scheduler: workers.hpp, provers.hpp): ahead of everything, preempting. */
struct critical_options {
  std::uint32_t max_per_client = 4;              // unfinished critical jobs one client may have; 0: critical refused
  std::uint32_t max_partitions_per_client = 16;  // partitions of those jobs, together
  double partitions_per_minute = 16;  // critical partitions one client may submit: a bucket of a minute's worth
  unsigned max_preemptions = 2;       // syntheses aborted plus proofs stopped per job; then it is preempted no more
  unsigned reserve_workers = 0;       // synthesis workers kept idle for critical jobs (never every worker)
  unsigned reserve_provers = 0;       // proving workers per GPU kept for critical proofs (never every one)
};

struct server_options {
  std::string pool;
  std::string hugepage_dir;
  std::string endpoint;         // clients: ipc:///run/cuzk/cuzk.sock, 0660 in client_group
  std::string worker_endpoint;  // workers: 0600, or 0660 in worker_group (default: endpoint + ".worker")
  std::string client_group, worker_group;
  std::vector<std::filesystem::path> keys_dirs;     // .zkey files clients may name by path
  std::vector<std::filesystem::path> witness_dirs;  // .wtns/.r1cs files clients may name
  backend_options backend;         // kind, threads, gpus, workers, device memory, --no-register (backend/backend.hpp)
  unsigned max_synth_crashes = 3;  // syntheses of one partition that may end their worker before its job fails
  unsigned device_attempts = 3;    // proofs of one slot that a transient device error may fail before its job fails
  std::chrono::milliseconds tick{100};            // region scan: dead workers, FILLED slots, wait timeouts
  std::chrono::milliseconds hung_timeout{60000};  // a slot-holding worker silent this long is killed
  std::vector<std::string> keys;                  // .zkey files loaded and parsed before serving; clients may name them
  /* what stays of a --key file's points in host memory once every GPU holds them ([keys] host_copy), and
     the keys (as given to --key, or ids) that differ from it */
  job::host_copy host_copy = job::host_copy::keep;
  std::vector<std::string> host_copy_drop, host_copy_keep;
  job::host_copy host_copy_of(const std::string& key, const std::string& key_id) const {
    auto named = [&](const std::vector<std::string>& v) {
      return std::any_of(v.begin(), v.end(), [&](const std::string& x) {
        return x == key || x == key_id ||
               std::filesystem::path(x).lexically_normal() == std::filesystem::path(key).lexically_normal();
      });
    };
    if (named(host_copy_keep)) return job::host_copy::keep;
    if (named(host_copy_drop)) return job::host_copy::drop;
    return host_copy;
  }
  std::chrono::seconds retention{24 * 3600};  // an unfetched finished job is kept at least this long
  std::uint32_t max_jobs_per_client = 256;    // job-table entries per uid: unfinished or finished and not fetched
  std::uint32_t max_waits_per_client = 64;    // pending Waits per uid
  std::uint32_t max_fetches_per_client = 4;   // replies with proofs being built per uid (beyond: busy)
  unsigned prepare_threads = 2;
  std::uint32_t max_preparing = 32;            // Submits waiting for or in preparation (beyond: busy)
  std::uint32_t max_preparing_per_client = 4;  // of which one uid's
  client_limits clients;                       // connections per uid and in total, handshake time, unread replies
  std::chrono::milliseconds stop_grace{5000};  // SIGTERM not acted on by the loop within this: the process exits
  std::vector<uid_t> operators;                // uids that see every job (root and the server's own uid always do)
  /* Gateways (cuzk-gateway) that may speak for their API keys (Envelope.on_behalf_of, client "http:NAME"): local
     uids, and network clients by name. Nobody else may; a gateway speaks for nothing but http: identities. */
  std::vector<uid_t> gateway_uids;
  std::vector<std::string> gateway_clients;
  std::string metrics_address;     // host:port of the HTTP metrics endpoint (e.g. 127.0.0.1:9464); empty: none
  unsigned timeline_minutes = 10;  // the phase spans /timeline and /trace.json keep
  network_options network;         // tcp:// clients (CURVE); none by default
  upload_options uploads;          // streamed witnesses
  cluster_options cluster;         // many nodes, one job queue; none by default
  critical_options critical;
  /* start with proving held: synthesis fills slots, FILLED slots wait; SIGUSR2 resumes, SIGUSR1 holds again */
  bool hold_proving = false;

  /* Operators see every job: root, the server's own uid and the listed ones. */
  bool is_operator(uid_t uid) const {
    return uid == 0 || uid == ::geteuid() || std::find(operators.begin(), operators.end(), uid) != operators.end();
  }
  std::uint64_t retention_ns() const { return static_cast<std::uint64_t>(retention.count()) * 1000000000ULL; }
};

/* A counter per kind of bad frame, for status and tests. */
struct server_counters {
  std::uint64_t malformed = 0, proofs = 0, failed = 0, submits = 0, stale = 0, refused = 0;
  std::uint64_t preempted = 0, aborted = 0;  // proofs stopped and syntheses aborted for critical jobs
  std::uint64_t critical_refused = 0;        // critical Submits over a per-client critical bound
  std::uint64_t spoken_for = 0;              // requests a connection sent for an API key (trusted or refused)
  preemption_ledger preemptions;             // per job, for the bound on preemptions
};

/* The loop's state (io thread only), read by the parts. */
struct loop_state {
  bool accepting = true;  // new Submits taken
  bool stopping = false;  // SIGTERM or a lost device: no new work
  bool serving = false;   // run() started the loop
  bool held = false;      // proving held: SIGUSR1 / --hold-proving, SIGUSR2 resumes
  int exit_code = 0;
};

}  // namespace cuzk::server
