// Client requests: Submit (idempotent by job id, limited per client,
// prepared on the pool in turns by uid), Status, Fetch and Wait, and the
// Waits pending until their job finishes.
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

#include "cluster/cluster_job_directory.hpp"
#include "queue/fair_queue.hpp"
#include "requests/file_policy.hpp"
#include "queue/job_queue.hpp"
#include "keys/key_store.hpp"
#include "outbox.hpp"
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
  struct context {
    const server_options& opt;
    const loop_state& loop;
    shm::job_table& jobs;
    const shm::slot_table& slots;
    job_queue& queue;
    key_store& keys;
    uploads& uploaded;
    outbox& out;
    server_counters& counters;
    boost::asio::io_context& io;
    boost::asio::thread_pool& prep;     // preparations
    boost::asio::thread_pool& replies;  // proof replies, decoded and formatted off the loop
    cluster_requests* cluster = nullptr;  // a cluster node: jobs recorded in and answered from its database
  };
  /* dispatch: new work may start. describe: the node's part of a status reply (GPUs; for operators slots and
     workers). node_capacity: the node's part of a capacity (slot classes, throughput). */
  client_requests(context c, std::function<void()> dispatch,
                  std::function<void(proto::status_reply&, bool operator_view)> describe,
                  std::function<void(proto::capacity&)> node_capacity);

  void submit(const peer& p, std::uint64_t rq, const proto::submit& s);
  void status(const peer& p, std::uint64_t rq, const proto::status_request& s);
  void fetch(const peer& p, std::uint64_t rq, const proto::fetch& f);
  void wait(const peer& p, std::uint64_t rq, const proto::wait_request& w);
  /* A client's connection closed (a local one, or a network one): its pending Waits go (how many). */
  std::size_t closed(const std::string& identity, channel via = channel::clients);
  /* Waits past their deadline are answered with the job's status. */
  void expire_waits();
  /* A job finished or failed: its Waits are answered. */
  void job_changed(shm::job_ref j);
  proto::job_status status_of(const shm::job_record& rec) const;
  /* What a scheduler needs (proto::capacity): the load per key and priority, the node's slots and throughput,
     and whether a Submit of this client would be accepted now (else why not). */
  proto::capacity capacity_for(const peer& p) const;

 private:
  struct waiter {
    address to;
    uid_t uid;
    std::uint64_t request_id;
    shm::job_ref job;
    std::chrono::steady_clock::time_point deadline;
  };
  struct submission {
    peer p;
    std::uint64_t rq;
    proto::submit s;
    std::array<std::uint8_t, 16> digest;
    spooled uploaded;  // its files that are the client's uploads
  };
  /* Claims the uploads a circom Submit names (upload:ID), or says why it cannot. */
  std::optional<std::string> claim_uploads(const peer& p, const proto::submit& s, spooled& out);
  void release_uploads(const peer& p, const proto::submit& s);

  /* Why a Submit is refused without reading any file (paths outside the allowed directories), or nullopt. */
  std::optional<std::string> precheck(const peer& p, const proto::submit& s) const;
  /* The next queued Submit, one uid after another, while a preparation thread is free. */
  void start_preparing();
  void on_prepared(const submission& sub, prepared r);
  /* Records a prepared Submit and answers it: the job when it was created. */
  std::optional<shm::job_ref> record(const submission& sub, prepared r);
  /* How many job-table entries (unfinished, or finished and not fetched) a uid holds. */
  std::uint32_t entries_of(uid_t uid) const;
  /* The per-client entry limit, never more than half the table: a full table is never one client's doing. */
  std::uint32_t entry_limit() const;
  /* A uid's Submits queued for or in preparation. */
  std::uint32_t preparing_of(uid_t uid) const;
  /* Why a new Submit of a client would be answered busy now, or nullopt. held: its job-table entries and
     Submits in preparation (entries_of + preparing_of); preparing: the latter. */
  std::optional<std::string> refusal_for(std::uint32_t held, std::uint32_t preparing) const;
  /* A uid's unfinished critical jobs and their partitions. */
  std::pair<std::uint32_t, std::uint32_t> critical_of(uid_t uid) const;
  /* Why a critical job of `partitions` would be refused: the per-client bounds on critical jobs, their
     partitions, and critical partitions per minute (a bucket of a minute's worth, refilled continuously). */
  std::optional<std::string> critical_refusal(uid_t uid, std::uint32_t partitions);
  /* The uid's bucket, refilled to now. */
  double& critical_budget(uid_t uid);
  /* The job this client may see: its own (operators: anyone's, job_lookup.hpp),
     or nullopt after replying unknown_job (an operator: or that several uids have the id). */
  std::optional<shm::job_ref> find_job(const peer& p, std::uint64_t rq, const std::string& job_id,
                                       std::optional<std::uint32_t> owner);
  /* Replies with the proofs (done; built off the loop) or the status
     (failed); false while the job runs. uid: whose fetch it is, for the bound. */
  bool answer_finished(const address& id, uid_t uid, std::uint64_t rq, shm::job_ref j);

  context c_;
  std::function<void()> dispatch_;
  std::function<void(proto::status_reply&, bool)> describe_;
  std::function<void(proto::capacity&)> node_capacity_;
  file_policy witness_files_;

  fair_queue<uid_t, submission> to_prepare_;  // Submits waiting for a preparation thread, round robin by uid
  std::map<uid_t, std::uint32_t> preparing_by_uid_;  // queued or running
  unsigned prep_running_ = 0;
  std::map<uid_t, std::uint32_t> fetching_by_uid_;  // proof replies being built
  struct bucket {
    double partitions = 0;
    std::chrono::steady_clock::time_point at;
  };
  std::map<uid_t, bucket> critical_budget_;  // critical partitions a uid may still submit now
  std::vector<waiter> waiters_;
};

}  // namespace cuzk::server
