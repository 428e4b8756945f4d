// The uids of a gateway's API keys (client "http:NAME", docs/operations.md):
// handed out one by one from http_uid_base as names first appear, and kept
// in the pool's directory (POOL.identities, the service's file, one
// "NAME UID" line each) so that a restarted server gives every name the uid
// its jobs in the pool are owned by. Two names never share a uid.
#pragma once

#include <sys/types.h>

#include <map>
#include <optional>
#include <string>

namespace cuzk::server {

class http_identities {
 public:
  /* Reads the pool's file if there is one; a line that is not "NAME UID" in range, or a uid given twice,
     is an error naming the file. */
  explicit http_identities(std::string pool);
  /* NAME's uid, handed out and written down if NAME is new; nullopt when all 2^20 are handed out or the file
     cannot be written (why says which). */
  std::optional<uid_t> uid_of(const std::string& name, std::string* why = nullptr);
  std::size_t size() const { return by_name_.size(); }

 private:
  void save();
  std::string pool_, path_;
  std::map<std::string, uid_t> by_name_;
};

}  // namespace cuzk::server
