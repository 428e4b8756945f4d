// The keys the server knows (DESIGN §9): installed in the pool, preloaded
// with --key, or loaded from a client's file under a keys directory; which
// client may name which by id; and the one cache of parsed keys (job::key_cache)
// the loop proves with and Submits resolve through, loaded and checked on the
// preparation pool, never on the loop.
#pragma once

#include <utility>  // before Boost 1.74 asio: its awaitable.hpp uses std::exchange without it

#include <boost/asio.hpp>
#include <boost/asio/thread_pool.hpp>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "backend/backend.hpp"
#include "requests/file_policy.hpp"
#include "job/key_cache.hpp"
#include "net/peer.hpp"
#include "server_options.hpp"
#include "shm/job_table.hpp"

namespace cuzk::server {

class key_store {
 public:
  struct hooks {
    std::function<void(const std::string& key_id, const std::string& error)> failed;  // loop: its jobs cannot be proven
    std::function<void()> ready;  // loop: a key was parsed (or failed); proofs waiting for it may start
  };
  key_store(const server_options& opt, const shm::job_table& jobs, boost::asio::io_context& io,
            boost::asio::thread_pool& pool, hooks h);

  /* Before serving: the --key files and ids, and the keys of the jobs a
     previous server left, parsed and attached to the backend. */
  void preload(prover_backend& backend);

  // The preparation pool's (loads can take seconds).
  /* The key a Submit names, and its id: installed (by id), preloaded, or a client's file. */
  job::any_key resolve(const std::string& zkey, const net::peer_credentials& who, std::string& key_id);
  /* Removes a key a client's file brought into shared memory if no job uses it. */
  void drop_unused(const std::string& key_id);

  // The loop's.
  /* Why a key path is refused without reading any file, or nullopt. */
  std::optional<std::string> refusal(const std::string& zkey) const;
  /* The parsed key when the loop has it; otherwise asks the pool to parse it and returns null. */
  job::any_key ready(const std::string& key_id);
  /* Whether this client may name the key by id (as resolve() decides; unknown ids included). */
  bool nameable(const net::peer_credentials& who, const std::string& key_id) {
    std::lock_guard lk(key_mu_);
    return may_name(who, key_id);
  }
  /* The key if it is parsed, checked and in memory now (loads nothing). */
  job::any_key loaded(const std::string& key_id) const { return keys_.find(key_id); }
  /* Parsed, or being parsed or checked. */
  bool has(const std::string& key_id) const { return keys_.find(key_id) || loading_keys_.count(key_id); }
  /* The keys this node can prove with, by id: preloaded, parsed or being parsed (a cluster node advertises them). */
  std::vector<std::string> held() const;
  /* A preloaded key's host memory: its policy and the bytes its SRS region holds now. */
  struct host_memory {
    std::string key_id;
    job::host_copy policy;
    std::uint64_t host_bytes;  // the region's pages that hold content (released ranges excluded)
  };
  std::vector<host_memory> host_copies() const;
  /* The cache's trim rule: parsed keys stay while a job needs them or they were preloaded; of the others the
     four most recently used stay. */
  void trim() { keys_.trim(); }

 private:
  bool may_name(const net::peer_credentials& who, const std::string& key_id) const;  // key_mu_ held
  /* A key parsed before serving without its content check: checked on the
     pool while the server serves; its jobs are proven only once it passed. */
  void verify(const std::string& key_id, job::any_key pk);
  void loaded(const std::string& key_id, job::any_key pk, const std::string& error);
  /* The keys the cache keeps whatever their age: preloaded, or named by an active job (any thread). */
  std::set<std::string> pinned() const;

  const server_options& opt_;
  const shm::job_table& jobs_;
  boost::asio::io_context& io_;
  boost::asio::thread_pool& pool_;
  hooks hooks_;

  std::mutex key_mu_;  // guards the client key files' maps below
  job::key_cache keys_;
  file_policy files_;
  /* The preloaded key k (a --key file or id): loaded with its points policy, parsed and attached. */
  void preload_key(prover_backend& backend, const std::string& k);

  std::map<std::string, std::string> preloaded_;    // --key path → key id (read-only after start)
  std::map<std::string, job::host_copy> policy_;    // key id → host_copy of a --key (read-only after start)
  std::map<std::string, std::string> key_by_file_;  // job::file_identity of a key file → key id (under key_mu_)
  // key id → the client key files (path → job::file_identity) it was loaded from (under key_mu_)
  std::map<std::string, std::map<std::string, std::string>> key_files_of_;

  std::set<std::string> loading_keys_;  // the loop's: being parsed or checked on the pool
};

}  // namespace cuzk::server
