// Where a client's jobs are recorded and looked up: the directory answers a
// Submit that is known already, records a prepared one, and answers Status,
// Fetch and Wait. A node's is its pool's job table (node_job_directory); a
// cluster node's is the cluster database (cluster/cluster_job_directory). The
// server chooses one at start; client_requests, which checks and prepares
// Submits, sees only this interface.
#pragma once

#include <sys/types.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>

#include "outbox.hpp"
#include "proto/message.hpp"
#include "requests/preparation.hpp"
#include "shm/job_table.hpp"

namespace cuzk::server {

/* A Submit that passed the checks that need no file, on its way to (or back from) preparation. */
struct submission {
  peer p;
  std::uint64_t rq;
  proto::submit s;
  std::array<std::uint8_t, 16> digest;
  spooled uploaded;  // its files that are the client's uploads
};

/* What became of a prepared Submit: created (by it; else known before, or refused), and whose its uploads
   are now: a local job's (job), the directory's own copies (stored: the spool's go), or the client's again. */
struct recorded {
  bool created = false;
  bool stored = false;
  std::optional<shm::job_ref> job;
};

/* A cancelled job's error. */
inline constexpr const char* cancelled_text = "cancelled by its client";

class job_directory {
 public:
  virtual ~job_directory() = default;

  /* A Submit of a job this client holds already is answered here, before any check (accepted again, or a
     conflict): true when it was. A directory that can only tell at record (a database) answers false. */
  virtual bool answer_known(const submission& sub) = 0;
  /* The client holds a job of this id (a prepared critical Submit of it is not counted twice). */
  virtual bool holds(const peer& p, const std::string& job_id) const = 0;
  /* The client's unfinished critical jobs and their partitions that the node's bounds count (a cluster's
     database counts its own at record). */
  virtual std::pair<std::uint32_t, std::uint32_t> critical_of(const peer& p) const = 0;
  /* A Submit refused before it was recorded: `why` as `code`, or accepted again when the directory holds the
     same request under its id (its uploads went with its first Submit). */
  virtual void refuse(const submission& sub, const std::string& why, proto::error_code code) = 0;
  /* Whether preparation keeps the files a client names by path open for record (a cluster stores them). */
  virtual bool stores_files() const = 0;
  /* Records a prepared Submit (r.code unset) and answers it; done(what became of it), now or later. */
  virtual void record(const submission& sub, prepared r, std::function<void(recorded)> done) = 0;

  /* One job's status, the client's jobs (operators: every job) with the node's part, or the cluster's nodes. */
  virtual void status(const peer& p, std::uint64_t rq, const proto::status_request& s) = 0;
  virtual void fetch(const peer& p, std::uint64_t rq, const proto::fetch& f) = 0;
  virtual void wait(const peer& p, std::uint64_t rq, const proto::wait_request& w) = 0;
  /* Fails the client's unfinished job "cancelled by its client" and answers its status (a finished job's as
     it is). */
  virtual void cancel(const peer& p, std::uint64_t rq, const proto::cancel_request& c) = 0;
  /* A job of this node's table finished, failed or was dropped: its Waits are answered. */
  virtual void job_changed(shm::job_ref j) = 0;
  /* A client's connection closed: its pending Waits go (how many). */
  virtual std::size_t closed(const std::string& identity, channel via) = 0;
  /* Waits past their deadline are answered with the job's status. */
  virtual void expire_waits() = 0;
};

}  // namespace cuzk::server
