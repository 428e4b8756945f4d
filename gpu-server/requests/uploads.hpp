// Files clients stream to the server (issue 22): a witness or constraint
// system a client holds goes into a spool directory the service owns, never
// a path the client names, one bounded chunk at a time, each acknowledged
// before the next (the flow control). A witness's header is checked against
// its key's witness count before anything past the first chunk is accepted;
// an upload that stalls is dropped and its file removed; each client's
// spooled bytes and open uploads are bounded. A Submit names a complete
// upload as upload:ID; the job owns the file from then on, and it is removed
// when the job ends (or, after a restart, when no active job names it).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "keys/key_store.hpp"
#include "outbox.hpp"
#include "proto/message.hpp"
#include "server_options.hpp"
#include "shm/job_table.hpp"
#include "util/expected.hpp"

namespace cuzk::server {

/* The uploads a circom Submit names (upload:ID), its witness first: (ID, kind). */
std::vector<std::pair<std::string, proto::upload_kind>> named_uploads(const proto::submit& s);

class uploads {
 public:
  /* Makes the spool directory (0700) if absent; removes files no active job names. */
  uploads(const server_options& opt, key_store& keys, const shm::job_table& jobs, outbox& out);

  void chunk(const peer& p, std::uint64_t rq, const proto::upload& u);
  /* The spool file of this client's complete upload, held for the Submit that names it (one at a time), or why not. */
  util::expected<std::string, std::string> claim(uid_t uid, const std::string& id, proto::upload_kind kind);
  /* The Submit was refused: the upload is the client's again. */
  void release(uid_t uid, const std::string& id);
  /* The Submit was accepted as this job: the file is the job's now. */
  void consumed(uid_t uid, const std::string& id, shm::job_ref job);
  /* The Submit was accepted and the cluster database holds the file now: it goes. */
  void discard(uid_t uid, const std::string& id);
  /* Where a job claimed from the cluster has its streamed file written (cluster_claims). */
  std::filesystem::path cluster_file(std::int64_t cluster_id, proto::upload_kind kind) const;
  /* That file is this job's: removed when it ends, counted in its owner's quota until then. */
  void adopt(uid_t owner, const std::filesystem::path& path, proto::upload_kind kind, shm::job_ref job);
  /* Tick: stalled uploads dropped, unused ones after upload_keep, files of ended jobs removed. */
  void expire();
  bool enabled() const { return !dir_.empty(); }
  std::uint64_t bytes() const;
  std::size_t files() const { return files_.size(); }

 private:
  struct entry {
    std::filesystem::path path;
    proto::upload_kind kind;
    std::uint64_t size = 0, received = 0;
    std::chrono::steady_clock::time_point last;
    std::optional<shm::job_ref> job;  // the job that owns it
    bool claimed = false;             // a Submit naming it is being prepared
  };
  using key = std::pair<uid_t, std::string>;
  /* Why a new upload is refused (quota, spool), or nullopt. */
  std::optional<std::string> admit(uid_t uid, const proto::upload& u) const;
  /* Why the witness's first chunk does not fit its key, or nullopt. */
  std::optional<std::string> check_witness_header(const proto::upload& u);
  /* "the pool holds no key" for a key id this client may not name and for one the pool does not hold alike:
     the same reply, before any size is checked, so that an upload tells nothing of other keys. */
  std::optional<std::string> unknown_key(const peer& p, const proto::upload& u);
  void drop(std::map<key, entry>::iterator it);
  void keep_inputs_files();

  const server_options& opt_;
  key_store& keys_;
  const shm::job_table& jobs_;
  outbox& out_;
  std::filesystem::path dir_;
  std::map<key, entry> files_;
};

}  // namespace cuzk::server
