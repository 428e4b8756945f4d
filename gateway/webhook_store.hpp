// Webhooks not yet delivered, kept on disk (--state-dir) so that a gateway
// killed and restarted delivers them still: one file each, 0600, named by
// a hash of its key and job (never by what a client chose), holding the key,
// the job, the URL and the signing secret (the token's SHA-256, what
// api-keys.d holds). Without a directory they live only in memory.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace cuzk::gateway {

struct pending_webhook {
  std::string key, job_id, url, secret_hex;
};

class webhook_store {
 public:
  explicit webhook_store(std::filesystem::path dir);
  /* Those a gateway before this one left; a file that cannot be read is logged and left alone. */
  std::vector<pending_webhook> load() const;
  void save(const pending_webhook& w) const;  // whole or not at all (a temporary file renamed)
  void remove(const pending_webhook& w) const;

 private:
  std::filesystem::path file_of(const pending_webhook& w) const;
  std::filesystem::path dir_;
};

}  // namespace cuzk::gateway
