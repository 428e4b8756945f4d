// The cluster's job store (DESIGN §11, issue 22): one PostgreSQL database
// that every node's server shares. Jobs, their owners and request digests,
// claims, node heartbeats and results live here; slots, a/b/c and keys stay
// in each node's pool. A node claims queued jobs whose key it holds with
// FOR UPDATE SKIP LOCKED, in priority then age order, so no two nodes ever
// hold one job; a node whose heartbeat is older than the timeout loses its
// unfinished claims, which other nodes retake, and a result it sends after
// that is refused. Every call is one transaction; a database that went away
// is reconnected on the next call, and the call in between throws
// store_unavailable with a sentence.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace cuzk::server {

class store_unavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/* A job as the cluster knows it. owner: the client's identity ("uid:1000", "net:alice"). */
struct cluster_job {
  std::int64_t id = 0;
  std::string owner, job_id, digest_hex, key_id, spec;
  int priority = 1;  // 0 high, 1 normal, 2 low (proto::priority)
  std::uint32_t partitions = 1;
  std::string state;  // queued, claimed, done, failed
  std::string node;   // the claiming node
  std::uint32_t attempts = 0;
  std::string error;
  std::vector<std::string> results_hex;  // per partition, once done
};

struct cluster_submit_outcome {
  std::int64_t id = 0;
  bool created = false;   // false: the owner's job id was known with the same digest
  bool conflict = false;  // the owner's job id is known with another digest
};

class cluster_store {
 public:
  /* conninfo: a libpq connection string ("postgresql://…" or "host=… dbname=…"). */
  explicit cluster_store(std::string conninfo);
  ~cluster_store();
  cluster_store(const cluster_store&) = delete;
  cluster_store& operator=(const cluster_store&) = delete;

  /* Creates the tables if absent (every node may call it at start). */
  void migrate();
  /* Records a job, idempotent per (owner, job_id) across the cluster. */
  cluster_submit_outcome submit(const cluster_job& j);
  /* This node is alive and holds these keys. */
  void heartbeat(const std::string& node, const std::vector<std::string>& key_ids);
  /* Up to `most` queued jobs whose key this node holds, highest priority then oldest first, now claimed by it. */
  std::vector<cluster_job> claim(const std::string& node, const std::vector<std::string>& key_ids, std::uint32_t most);
  /* The claimed job's proofs; false when the claim was no longer this node's (released, retaken). */
  bool complete(std::int64_t id, const std::string& node, const std::vector<std::string>& results_hex);
  bool fail(std::int64_t id, const std::string& node, const std::string& error);
  /* Claims of nodes silent for longer than `timeout` go back to the queue; how many. */
  std::uint32_t release_dead(std::chrono::seconds timeout);
  /* The owner's job, on any node. */
  std::optional<cluster_job> find(const std::string& owner, const std::string& job_id);

 private:
  struct session;  // the libpqxx connection (cluster_store.cpp)
  template <class F>
  auto run(F&& f);
  session& open();

  std::string conninfo_;
  std::unique_ptr<session> session_;
};

}  // namespace cuzk::server
