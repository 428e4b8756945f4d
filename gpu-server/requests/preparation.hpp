// A Submit's checks that read files or count a circuit: they run on the
// preparation pool, never on the loop.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "requests/file_policy.hpp"
#include "job/any_key.hpp"
#include "keys/key_store.hpp"
#include "net/peer.hpp"
#include "proto/message.hpp"
#include "shm/slot_table.hpp"

namespace cuzk::server {

/* What the pool made of a Submit: the key and the job description, or the error to answer. */
struct prepared {
  std::string key_id;
  std::string circuit_id;  // an installed circuit's (job::installed_circuit::id): what a cluster queues it under
  job::any_key pk;
  std::string spec_json;
  std::optional<proto::error_code> code;
  std::string error;
  /* keep_named: the circom files the client named by path, as opened under the client's identity (a
     cluster node sends their bytes with the job: no other node opens the path). */
  std::shared_ptr<opened_file> wtns_file, r1cs_file;
  /* An installed circuit's inputs, stored in the pool's directory for the job (job::store_inputs): the job's file
     once it is recorded, removed if it is not. */
  std::string inputs_file;
};

/* A circom Submit's files that are the client's own uploads (uploads.hpp): spool paths the loop resolved. */
struct spooled {
  std::optional<std::string> wtns, r1cs;
};

prepared prepare(const proto::submit& s, const net::peer_credentials& who, key_store& keys,
                 const shm::slot_table& slots, const file_policy& witnesses, const std::string& pool,
                 const spooled& uploaded = {}, bool keep_named = false);

}  // namespace cuzk::server
