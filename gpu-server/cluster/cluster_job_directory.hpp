// A cluster node's job directory (DESIGN §11): a prepared Submit is
// recorded in the cluster database (idempotent per client identity and job
// id on every node; its streamed files travel with it), and Status, Fetch
// and Wait answer from the database whichever node proves the job; Waits
// wake on the database's cuzk_done notification. The client's identity is
// its owner name there: "uid:N" for a local client, "net:NAME" for a
// network client, so a name means the same client on every node.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <variant>
#include <optional>
#include <string>
#include <vector>

#include "cluster/cluster_link.hpp"
#include "groth16/keys.hpp"
#include "job/any_key.hpp"
#include "keys/key_store.hpp"
#include "admin/node_status.hpp"
#include "node_context.hpp"
#include "outbox.hpp"
#include "requests/job_directory.hpp"
#include "proto/message.hpp"
#include "server_options.hpp"
#include "shm/job_table.hpp"
#include "shm/slot_table.hpp"

namespace cuzk::server {

/* Submits refused at a cluster-wide limit, and stored proofs refused because they did not verify. */
struct cluster_counters {
  std::uint64_t refused_jobs = 0, refused_critical = 0, refused_files = 0, proofs_refused = 0;
};

class cluster_job_directory final : public job_directory {
 public:
  /* keys: a Submit's key is kept; a stored proof is verified with its key before it is answered. */
  struct context : node_context {
    cluster_link& link;
    const node_status& node;
    cluster_counters& counts;
  };
  explicit cluster_job_directory(context c) : c_(c) {}

  /* A client's name in the database. */
  static std::string owner_of(const peer& p);
  /* The database answers a known id at record, on any node. */
  bool answer_known(const submission&) override { return false; }
  bool holds(const peer&, const std::string&) const override { return false; }
  /* The database counts the critical jobs of a client on every node at record. */
  std::pair<std::uint32_t, std::uint32_t> critical_of(const peer&) const override { return {}; }
  /* Accepted again when the database knows the same request under its id (the cluster holds its uploads since
     its first Submit), else refused with `why`. */
  void refuse(const submission& sub, const std::string& why, proto::error_code code) override;
  /* Another node proves the job: the files the client named are stored with it. */
  bool stores_files() const override { return true; }
  /* Recorded in the database with its files; stored once the cluster holds it (the spool's copies may go). */
  void record(const submission& sub, prepared r, std::function<void(recorded)> done) override;
  void status(const peer& p, std::uint64_t rq, const proto::status_request& s) override;
  void fetch(const peer& p, std::uint64_t rq, const proto::fetch& f) override;
  void wait(const peer& p, std::uint64_t rq, const proto::wait_request& w) override;
  void cancel(const peer& p, std::uint64_t rq, const proto::cancel_request& c) override;
  /* A local job is a claim: cluster_claims reports it; the Waits wake on the database's notification. */
  void job_changed(shm::job_ref) override {}
  std::size_t closed(const std::string& identity, channel via) override;
  void expire_waits() override;
  /* The database says this job finished (or the listener reconnected: every pending Wait looks again). */
  void job_finished(std::int64_t id);
  void resync();

 private:
  struct waiter {
    address to;
    uid_t uid;
    std::uint64_t request_id;
    std::int64_t id;
    std::chrono::steady_clock::time_point deadline;
  };
  /* What the database knows of a job, read and decoded on the database thread. */
  struct answer {
    std::optional<cluster_job> job;
    std::optional<proto::proof_reply> proofs;  // a done job's
    std::string error;                         // its stored proofs did not decode or did not verify
    bool altered = false;                      // did not verify: the database's copy was rewritten
  };
  /* The verifying keys of the keys this node holds, for the database thread (taken on the loop, kept:
     a few kilobytes each, so a key whose points leave memory stays verifiable). */
  using any_vk = std::variant<std::shared_ptr<const groth16::basic_verifying_key<curves::bls12_381>>,
                              std::shared_ptr<const groth16::basic_verifying_key<curves::bn254>>>;
  using vk_map = std::map<std::string, any_vk>;
  vk_map vks_now();
  /* The job, with its proofs decoded and verified under its key when it is done: whoever can write the
     database can rewrite a stored proof, so none is answered that does not verify. */
  static answer answer_of(std::optional<cluster_job> j, const vk_map& vks);
  /* The cluster's nodes (cuzk status --cluster); while the database does not answer, why. */
  void cluster(const peer& p, std::uint64_t rq);
  /* The owner a request names: the sender, or (an operator) the uid it gives. */
  std::string owner_named(const peer& p, std::optional<std::uint32_t> owner_uid) const;
  /* The database could not answer: UNAVAILABLE, with why. */
  void unavailable(const address& to, std::uint64_t rq, const std::string& why);
  /* Runs a database look-up for this client unless it has too many in flight (then busy). */
  bool admit(const peer& p, std::uint64_t rq);
  void look_up(uid_t uid, std::function<answer(cluster_store&)> f,
               std::function<void(util::expected<answer, std::string>)> done);
  proto::job_status status_of(const cluster_job& j) const;
  /* Answers a finished job (its proofs or its failure); false while it runs. */
  bool answer_finished(const address& to, std::uint64_t rq, const answer& a);
  void recheck(const std::vector<waiter>& ws);

  context c_;
  std::map<uid_t, unsigned> in_flight_;  // database look-ups per client
  std::vector<waiter> waiters_;
  vk_map vks_;
  std::set<std::string> asked_;  // keys asked to load for their verifying key
};

}  // namespace cuzk::server
