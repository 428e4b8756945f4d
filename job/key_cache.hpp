// Proving keys by key id: the .zkey bytes live in the pool's SRS regions
// (shm/srs_region.hpp), loaded from disk once and kept across restarts; each
// process parses a key once and keeps it while jobs use it. The one cache of
// parsed keys in a process, safe to share between threads: lookups never
// wait for a parse (keys are parsed and checked outside its lock).
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "job/any_key.hpp"

namespace cuzk::job {

/* What stays of a key's points in host memory once a GPU holds them (DESIGN §9, [keys] host_copy). */
enum class host_copy {
  keep,  // the SRS region holds them: a restart is READY in seconds
  drop,  // only the GPUs and the key's file do: a restart reads them from the file at the disk's rate
};

class key_cache {
 public:
  /* The trim rule: the keys pinned() names stay (a server's: preloaded, or named by an active job); of the
     others the `capacity` most recently used stay. */
  explicit key_cache(std::string pool, std::size_t capacity = 4, std::function<std::set<std::string>()> pinned = {})
      : pool_(std::move(pool)), capacity_(capacity), pinned_(std::move(pinned)) {}

  /* false: keys are parsed without decoding their points, which stay in the
     mapped SRS region (a GPU backend uploads them from there; a synthesis
     worker never reads them): seconds instead of minutes for a 2^26 key,
     and no copy of it on the heap. Applies to keys parsed after the call. */
  void decode_points(bool on) { decode_points_ = on; }
  /* true (the server): once a key's region is verified, what no job of the key reads is released from
     memory (a native circuit's key's A/B coefficients: shm::srs_region::release). */
  void release_unread(bool on) { release_unread_ = on; }

  /* Loads the file into its SRS region (unless one with the same content
     hash exists) and parses it; returns the key id. job_error when the file
     is missing, not a regular file (it is opened with O_NOFOLLOW|O_NONBLOCK)
     or not a valid .zkey. */
  std::string load(const std::filesystem::path& zkey);
  /* The same with a policy for the points. drop: a region made now never
     holds the point sections (their hashes are recorded as the file is
     hashed) and the parsed key reads them from the file (job::region_points,
     which keeps it open); release_points() lets an existing region's go.
     keep: a region that released them gets them back from the file. */
  std::string load(const std::filesystem::path& zkey, host_copy policy);
  /* The key's point sections leave its region (the GPUs hold them now); the bytes released. */
  std::uint64_t release_points(const std::string& key_id);
  /* The same for a key file the caller opened (after its own checks); the
     caller keeps and closes fd. display_name names it in errors. */
  std::string load(int fd, std::string_view display_name);
  /* The key of an SRS region the pool already holds; job_error if none, if
     the region does not belong to the service, or if its content does not
     hash to its key id (checked once per key id per process, before parsing).
     verify = false: parsed without that check (a server makes a large key
     resident before it serves and checks it with verify() meanwhile; 19 s
     for a 2^27 key); nothing may prove with it until verify() succeeded. */
  any_key get(const std::string& key_id, bool verify = true);
  /* The content check get() skips with verify = false: job_error when the
     region is gone or does not hash to its key id; once it passed, the key
     is found. */
  void verify(const std::string& key_id);
  /* The parsed and checked key if it is cached now, or null: parses and checks nothing. */
  any_key find(const std::string& key_id) const;
  /* The keys cached now, checked or not. */
  std::vector<std::string> ids() const;
  /* Drops the parsed key (its SRS region stays unless destroyed). */
  void forget(const std::string& key_id);
  /* Applies the trim rule now (every insertion applies it too). */
  void trim();

 private:
  any_key insert(const std::string& key_id, any_key pk);  // the cached key if one came first
  void trim_locked();
  const std::string* releasing() const { return release_unread_ ? &pool_ : nullptr; }
  std::string pool_;
  std::size_t capacity_;
  std::function<std::set<std::string>()> pinned_;
  mutable std::mutex mu_;  // guards what follows; never held while a key is parsed or checked
  std::map<std::string, any_key> keys_;
  std::map<std::string, std::uint64_t> used_;
  std::uint64_t clock_ = 0;
  bool decode_points_ = true;
  bool release_unread_ = false;
  std::set<std::string> unverified_;  // parsed with get(id, false), not yet checked by a get(id)
};

}  // namespace cuzk::job
