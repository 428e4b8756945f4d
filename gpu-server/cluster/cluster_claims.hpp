// A cluster node's claims (DESIGN §11, issue 22): the queue is the cluster
// database's, and this node takes from it what it can prove. It claims
// queued jobs whose key it holds (FOR UPDATE SKIP LOCKED, priority then age)
// while its slots have room, prepares each like a Submit and records it in
// its own job table as "cluster:ID:CLAIM" through the node's queue, which
// hands its partitions to workers as always. A finished job's proofs (verified by the
// prover) or its failure go back to the database, which answers clients on
// every node; only then is the local record released. It heartbeats, returns
// the claims of silent nodes to the queue, and reconciles: a job it holds
// whose claim was released while it was away is claimed again when nobody
// took it (the pool keeps its synthesized partitions), dropped when someone
// did; a claimed job missing from its pool is prepared again.
#pragma once

#include <utility>  // before Boost 1.74 asio: its awaitable.hpp uses std::exchange without it

#include <boost/asio.hpp>
#include <boost/asio/thread_pool.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cluster/cluster_link.hpp"
#include "requests/file_policy.hpp"
#include "keys/key_store.hpp"
#include "node_context.hpp"
#include "queue/job_queue.hpp"
#include "requests/preparation.hpp"
#include "server_options.hpp"
#include "shm/job_table.hpp"
#include "shm/slot_table.hpp"
#include "requests/uploads.hpp"

namespace cuzk::server {

class cluster_claims {
 public:
  struct context : node_context {
    job_queue& queue;  // the node's: a claimed job is recorded through it
    uploads& spool;
    cluster_link& link;
    boost::asio::thread_pool& prep;
  };
  /* dispatch: new work may start. reconciled: the database said, for the first time since the start, which
     jobs of this node's pool are still its own. refused: another live node holds this node's name (why, a
     sentence): the node must stop. */
  cluster_claims(context c, std::function<void()> dispatch, std::function<void()> reconciled,
                 std::function<void(const std::string&)> refused = {});

  /* The loop's tick: heartbeat and reconciliation on their period, claims on the poll period. */
  void tick();
  /* A job was queued somewhere in the cluster: claim now if there is room. */
  void queued() { claim_more(); }
  /* A local job changed: a finished cluster job is reported. */
  void job_changed(shm::job_ref j);
  /* Jobs claimed by this node and not yet in its table, for status. */
  std::size_t taking() const { return taking_.size(); }
  bool database_up() const { return database_up_; }
  /* Why the last call to the database failed, while it is down (libpq's words, without the password). */
  const std::string& database_error() const { return database_error_; }

 private:
  /* Partitions this node's slots can still take: slots minus unfinished local partitions and those being taken in. */
  std::uint32_t room() const;
  void claim_more();
  void beat();
  /* Local cluster jobs whose claim this node no longer holds are dropped; claimed ones missing here are taken in. */
  void reconcile(const std::vector<cluster_job>& mine);
  /* A claimed job into the local table: its files from the database, prepared on the pool, recorded. */
  void take_in(const cluster_job& j);
  void taken_in(const cluster_job& j, const std::vector<std::pair<proto::upload_kind, std::string>>& files, prepared r);
  /* Gives a claim back (this node cannot record it now) or fails the job (it cannot be proven). */
  void give_up(std::int64_t id, const std::string& why, bool fail);
  /* A finished cluster job's result to the database (again: though it was reported before). */
  void report(shm::job_ref j, bool again = false);
  void note_database(bool up, const std::string& why);

  context c_;
  std::function<void()> dispatch_, reconciled_;
  std::function<void(const std::string&)> refused_;
  file_policy witness_files_;
  std::set<std::int64_t> taking_, reporting_;
  bool claiming_ = false, beating_ = false, database_up_ = true;
  bool named_ = false;  // a heartbeat wrote this node's name: no other live node holds it; claims may start
  std::string database_error_;
  /* Since when this node has reached the database without a failure: it returns other nodes' claims only
     after being up for the dead-node timeout itself (after an outage every node looks silent). */
  std::optional<std::chrono::steady_clock::time_point> up_since_;
  std::chrono::steady_clock::time_point last_beat_{}, last_poll_{};
};

}  // namespace cuzk::server
