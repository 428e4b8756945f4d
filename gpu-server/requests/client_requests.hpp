// Client requests: Submit (idempotent by job id, limited per client,
// prepared on the pool in turns by uid, then recorded in the job directory),
// Status, Fetch and Wait (answered by the job directory), and the capacity
// a scheduler reads.
#pragma once

#include <utility>  // before Boost 1.74 asio: its awaitable.hpp uses std::exchange without it

#include <array>
#include <boost/asio.hpp>
#include <boost/asio/thread_pool.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "queue/fair_queue.hpp"
#include "requests/file_policy.hpp"
#include "keys/key_store.hpp"
#include "node_context.hpp"
#include "outbox.hpp"
#include "admin/node_status.hpp"
#include "requests/job_directory.hpp"
#include "requests/preparation.hpp"
#include "proto/message.hpp"
#include "server_options.hpp"
#include "shm/job_table.hpp"
#include "shm/slot_table.hpp"
#include "requests/uploads.hpp"

namespace cuzk::server {

class client_requests {
 public:
  /* What a client request reads and changes. */
  struct context : node_context {
    uploads& uploaded;
    server_counters& counters;
    boost::asio::thread_pool& prep;  // preparations
    const node_status& node;
    job_directory& directory;  // where Submits are recorded and Status answered (chosen at start)
  };
  /* dispatch: new work may start. */
  client_requests(context c, std::function<void()> dispatch);

  void submit(const peer& p, std::uint64_t rq, const proto::submit& s);
  /* A capacity request (the node's own view, also on a cluster node); any other Status to the directory. */
  void status(const peer& p, std::uint64_t rq, const proto::status_request& s);
  /* What a scheduler needs (proto::capacity): the load per key and priority, the node's slots and throughput,
     and whether a Submit of this client would be accepted now (else why not). */
  proto::capacity capacity_for(const peer& p) const;

 private:
  /* Claims the uploads a circom Submit names (upload:ID), or says why it cannot. */
  std::optional<std::string> claim_uploads(const peer& p, const proto::submit& s, spooled& out);
  void release_uploads(const peer& p, const proto::submit& s);

  /* Why a Submit is refused without reading any file (paths outside the allowed directories), or nullopt. */
  std::optional<std::string> precheck(const peer& p, const proto::submit& s) const;
  /* The next queued Submit, one uid after another, while a preparation thread is free. */
  void start_preparing();
  /* A prepared Submit to the directory, charged to the client's critical bucket; its uploads to their owner. */
  void on_prepared(const submission& sub, prepared r);
  /* How many job-table entries (unfinished, or finished and not fetched) a uid holds. */
  std::uint32_t entries_of(uid_t uid) const;
  /* The per-client entry limit, never more than half the table: a full table is never one client's doing. */
  std::uint32_t entry_limit() const;
  /* A uid's Submits queued for or in preparation. */
  std::uint32_t preparing_of(uid_t uid) const;
  /* Why a new Submit of a client would be answered busy now, or nullopt. held: its job-table entries and
     Submits in preparation (entries_of + preparing_of); preparing: the latter. */
  std::optional<std::string> refusal_for(std::uint32_t held, std::uint32_t preparing) const;
  /* Why a critical job of `partitions` would be refused: the per-client bounds on critical jobs, their
     partitions, and critical partitions per minute (a bucket of a minute's worth, refilled continuously). */
  std::optional<std::string> critical_refusal(const peer& p, std::uint32_t partitions);
  /* The uid's bucket, refilled to now. */
  double& critical_budget(uid_t uid);

  context c_;
  std::function<void()> dispatch_;
  file_policy witness_files_;

  fair_queue<uid_t, submission> to_prepare_;         // Submits waiting for a preparation thread, round robin by uid
  std::map<uid_t, std::uint32_t> preparing_by_uid_;  // queued or running
  unsigned prep_running_ = 0;
  struct bucket {
    double partitions = 0;
    std::chrono::steady_clock::time_point at;
  };
  std::map<uid_t, bucket> critical_budget_;  // critical partitions a uid may still submit now
};

}  // namespace cuzk::server
