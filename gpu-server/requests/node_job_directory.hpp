// A node's job directory: its pool's job table. A Submit is recorded there
// through the queue (its partitions wait from then on), idempotent per owner
// and job id; Status, Fetch and Wait answer from the table, a done job's
// proofs decoded and formatted off the loop, and Waits pend until their job
// finishes or their deadline passes.
#pragma once

#include <utility>  // before Boost 1.74 asio: its awaitable.hpp uses std::exchange without it

#include <boost/asio.hpp>
#include <boost/asio/thread_pool.hpp>
#include <chrono>
#include <functional>
#include <map>
#include <vector>

#include "admin/node_status.hpp"
#include "node_context.hpp"
#include "queue/job_queue.hpp"
#include "requests/job_directory.hpp"
#include "server_options.hpp"
#include "shm/slot_table.hpp"

namespace cuzk::server {

/* A job's status from its record: its partitions' states read from the slots they hold. */
proto::job_status job_status_of(const shm::job_record& rec, const shm::slot_table& slots);

class node_job_directory final : public job_directory {
 public:
  struct context : node_context {
    job_queue& queue;
    const node_status& node;
    boost::asio::thread_pool& replies;  // proof replies, decoded and formatted off the loop
  };
  /* capacity: the capacity a whole-service status reply carries for this client (client_requests). */
  node_job_directory(context c, std::function<proto::capacity(const peer&)> capacity)
      : c_(c), capacity_(std::move(capacity)) {}

  bool answer_known(const submission& sub) override;
  bool holds(const peer& p, const std::string& job_id) const override;
  std::pair<std::uint32_t, std::uint32_t> critical_of(const peer& p) const override;
  void refuse(const submission& sub, const std::string& why, proto::error_code code) override;
  bool stores_files() const override { return false; }
  void record(const submission& sub, prepared r, std::function<void(recorded)> done) override;
  void status(const peer& p, std::uint64_t rq, const proto::status_request& s) override;
  void fetch(const peer& p, std::uint64_t rq, const proto::fetch& f) override;
  void wait(const peer& p, std::uint64_t rq, const proto::wait_request& w) override;
  void cancel(const peer& p, std::uint64_t rq, const proto::cancel_request& c) override;
  void job_changed(shm::job_ref j) override;
  std::size_t closed(const std::string& identity, channel via) override;
  void expire_waits() override;

 private:
  struct waiter {
    address to;
    uid_t uid;
    std::uint64_t request_id;
    shm::job_ref job;
    std::chrono::steady_clock::time_point deadline;
  };
  /* The recorded job when this Submit created it; else the client was answered. */
  std::optional<shm::job_ref> record(const submission& sub, const prepared& r);
  /* The job this client may see: its own (operators: anyone's, job_lookup.hpp),
     or nullopt after replying unknown_job (an operator: or that several uids have the id). */
  std::optional<shm::job_ref> find_job(const peer& p, std::uint64_t rq, const std::string& job_id,
                                       std::optional<std::uint32_t> owner);
  /* Replies with the proofs (done; built off the loop) or the status
     (failed); false while the job runs. uid: whose fetch it is, for the bound. */
  bool answer_finished(const address& id, uid_t uid, std::uint64_t rq, shm::job_ref j);

  context c_;
  std::function<proto::capacity(const peer&)> capacity_;
  std::map<uid_t, std::uint32_t> fetching_by_uid_;  // proof replies being built
  std::vector<waiter> waiters_;
};

}  // namespace cuzk::server
