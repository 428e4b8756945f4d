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
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "util/priority.hpp"

namespace cuzk::server {

class store_unavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/* Where a cluster job is: waiting for a node, claimed by one, or finished. */
enum class cluster_state { queued, claimed, done, failed };

/* The state's name in the database (its state column), in logs and in a test's failure. */
std::string_view name(cluster_state s);
inline std::ostream& operator<<(std::ostream& o, cluster_state s) { return o << name(s); }

/* A job as the cluster knows it. owner: the client's identity ("uid:1000", "net:alice"). */
struct cluster_job {
  std::int64_t id = 0;
  std::string owner, job_id, digest_hex, key_id, spec;
  std::string client;                          // the client's label (proto::submit::client)
  cuzk::priority priority = priority::normal;  // the column holds its stored value (util/priority.hpp)
  int curve = 1;                               // the key's (curves::curve_id)
  std::uint32_t partitions = 1;
  cluster_state state = cluster_state::queued;
  std::string node;  // the claiming node
  std::uint32_t attempts = 0;
  std::string error;
  std::vector<std::vector<std::uint8_t>> results;   // per partition, once done: job::encode_result's bytes
  std::uint64_t submitted_ns = 0, finished_ns = 0;  // Unix time
};

/* A file a job's Submit streamed into the accepting node's spool: it travels
   with the job (bytea), so whichever node claims the job can prove it. */
struct cluster_input {
  std::string kind;  // "wtns", "r1cs" (proto::name of its upload_kind)
  std::vector<std::uint8_t> bytes;
};

struct cluster_submit_outcome {
  std::int64_t id = 0;
  bool created = false;                         // false: the owner's job id was known with the same digest
  bool conflict = false;                        // the owner's job id is known with another digest
  cluster_state state = cluster_state::queued;  // the job's state now
  bool busy = false;                            // not recorded: the owner holds `max_unfinished` unfinished jobs
  std::uint64_t unfinished = 0;
  bool critical = false;  // busy with `max_critical` unfinished critical jobs, or over `max_critical_partitions`:
  std::optional<std::uint64_t> critical_partitions = std::nullopt;  // the latter: the partitions of those jobs
  bool stored_full = false;        // busy: the owner's files in the database and these would pass `max_stored_bytes`
  std::uint64_t stored_bytes = 0;  // then: what the owner's unfinished jobs keep there
};

/* Who holds a node name: the instance (host, pool) that last beat under it, and how long ago. */
struct node_holder {
  std::string instance;
  double silent_s = 0;
};

/* A node as the database knows it (cuzk status --cluster). */
struct cluster_node {
  std::string name, instance;
  std::vector<std::string> keys;
  double silent_s = 0;       // since its last heartbeat, by the database's clock
  std::uint64_t claims = 0;  // jobs it holds claimed
};

/* The connection string with libpq's liveness settings added where it names
   none: connect within 5 s, and a connection whose peer is silent (a cut
   network, a dead host) fails within about 10 s instead of hanging a call. */
std::string with_liveness(const std::string& conninfo);

/* libpq's message with the connection string's password (if it holds one) replaced by "***": a
   connection string libpq cannot parse is quoted in its error. */
std::string without_password(std::string message, const std::string& conninfo);

class cluster_store {
 public:
  /* conninfo: a libpq connection string ("postgresql://…" or "host=… dbname=…"). */
  explicit cluster_store(std::string conninfo);
  ~cluster_store();
  cluster_store(const cluster_store&) = delete;
  cluster_store& operator=(const cluster_store&) = delete;

  /* Creates the tables if absent (every node may call it at start), and brings a database of an older
     schema to this one: its proofs, stored as hex text, move into cuzk_proofs as bytes. */
  void migrate();
  /* Records a job and its streamed files, idempotent per (owner, job_id) across the cluster. The owner's
     limits (unfinished jobs, critical ones and their partitions, bytes of files kept for unfinished jobs) are
     checked and the job inserted in one transaction that holds the owner's advisory lock: submits of one owner
     through many nodes are serialized, so none passes a limit. */
  cluster_submit_outcome submit(const cluster_job& j, const std::vector<cluster_input>& inputs = {},
                                std::uint64_t max_unfinished = UINT64_MAX, std::uint64_t max_critical = UINT64_MAX,
                                std::uint64_t max_stored_bytes = UINT64_MAX,
                                std::uint64_t max_critical_partitions = UINT64_MAX);
  /* The files a job's Submit streamed (removed once the job is done or failed). */
  std::vector<cluster_input> inputs(std::int64_t id);
  /* This node is alive and holds these keys: nullopt. When another instance (instance: the node's host and
     pool) beat under the same name within `live`, nothing is written and the holder is returned. */
  std::optional<node_holder> heartbeat(const std::string& node, const std::vector<std::string>& key_ids,
                                       const std::string& instance = {},
                                       std::chrono::seconds live = std::chrono::seconds(0));
  /* Up to `most` queued jobs whose key this node holds, highest priority then oldest first, now claimed by it;
     without `streamed` (no spool) only jobs without streamed files. */
  std::vector<cluster_job> claim(const std::string& node, const std::vector<std::string>& key_ids, std::uint32_t most,
                                 bool streamed = true);
  /* The claimed job's proofs; false when the claim was no longer this node's (released, retaken), or when
     the job is not the one the node proved: another request (digest_hex) or another owner (owner_uid, the
     local uid its owner name maps to, cluster_names.hpp); empty digest_hex or no owner_uid: not checked. */
  bool complete(std::int64_t id, const std::string& node, const std::vector<std::vector<std::uint8_t>>& results,
                const std::string& digest_hex = {}, std::optional<std::uint32_t> owner_uid = std::nullopt);
  bool fail(std::int64_t id, const std::string& node, const std::string& error);
  /* The owner's queued or claimed job of that id fails with `error`; false when it had finished or is unknown. */
  bool cancel(const std::string& owner, const std::string& job_id, const std::string& error);
  /* A claim this node cannot use goes back to the queue; false when it was not this node's. */
  bool unclaim(std::int64_t id, const std::string& node);
  /* This node claims again a job it still holds in its pool, if it is queued (its claim was released while
     the node was away and nobody took it); true when the job is this node's claim now. */
  bool reclaim(std::int64_t id, const std::string& node);
  /* Claims of nodes silent for longer than `timeout` go back to the queue; how many. */
  std::uint32_t release_dead(std::chrono::seconds timeout);
  /* The owner's job, on any node. */
  std::optional<cluster_job> find(const std::string& owner, const std::string& job_id);
  std::optional<cluster_job> get(std::int64_t id);
  /* The jobs this node holds claimed. */
  std::vector<cluster_job> claimed_by(const std::string& node);
  /* The owner's jobs (every job when owner is empty), newest first, without their results. */
  std::vector<cluster_job> list(const std::string& owner, std::uint32_t most);
  /* Finished jobs older than `retention` are removed; how many. */
  std::uint32_t expire(std::chrono::seconds retention);
  /* Every node the database knows, with the key ids it said it holds at its last heartbeat. */
  std::vector<std::pair<std::string, std::vector<std::string>>> nodes();
  /* Every node with its instance, keys, heartbeat age and claims (cuzk status --cluster). */
  std::vector<cluster_node> node_views();
  /* Jobs per state, for metrics: queued, claimed, done, failed. */
  std::vector<std::pair<cluster_state, std::uint64_t>> counts();

 private:
  struct session;  // the libpqxx connection (cluster_store.cpp)
  template <class F>
  auto run(F&& f);
  session& open();

  std::string conninfo_;
  std::unique_ptr<session> session_;
};

}  // namespace cuzk::server
