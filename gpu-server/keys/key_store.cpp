#include "keys/key_store.hpp"

#include <spdlog/spdlog.h>

#include <chrono>

#include "io/zkey.hpp"
#include "io/zkey_dims.hpp"
#include "job/spec.hpp"
#include "listeners/authorized_clients.hpp"
#include "shm/failpoint.hpp"
#include "shm/srs_region.hpp"
#include "util/utf8.hpp"

namespace cuzk::server {

namespace {

/* The files (path → identity) a key was loaded from, a few per key: each is
   opened again when a client names the key by id. */
void remember_file(std::map<std::string, std::string>& files, const std::string& path, const std::string& identity) {
  constexpr std::size_t most = 16;
  if (!files.count(path) && files.size() >= most) files.erase(files.begin());
  files[path] = identity;
}

}  // namespace

key_store::key_store(const server_options& opt, const shm::job_table& jobs, boost::asio::io_context& io,
                     boost::asio::thread_pool& pool, hooks h)
    : opt_(opt),
      jobs_(jobs),
      io_(io),
      pool_(pool),
      hooks_(std::move(h)),
      keys_(opt.pool, 4, [this] { return pinned(); }),
      files_(opt.keys_dirs, "key") {}

void key_store::preload(prover_backend& backend) {
  keys_.decode_points(!backend.reads_mapped_bases());
  keys_.release_unread(true);
  for (const auto& k : opt_.keys) preload_key(backend, k);  // large keys load here, not in a client's Submit
  // The keys of the jobs a previous server left, before serving (a restart
  // should not make the first proofs wait for a parse on the pool).
  jobs_.for_each([&](shm::job_ref, const shm::job_record& rec) {
    if (shm::job_word_state(rec) != shm::job_state::active) return;
    const std::string id(shm::field_text(rec.key_id));
    if (keys_.find(id) || loading_keys_.count(id)) return;
    try {
      auto pk = keys_.get(id, false);
      backend.attach_key(id, pk);
      verify(id, pk);
    } catch (const std::exception& e) {
      spdlog::warn("key {} of a queued job: {}", id, util::printable(e.what()));
    }
  });
}

void key_store::preload_key(prover_backend& backend, const std::string& k) {
  const auto t0 = std::chrono::steady_clock::now();
  const bool installed = shm::is_key_id(k);  // already in the pool (cuzk-shm load-srs, cuzk setup --pool)
  auto policy = opt_.host_copy_of(k, installed ? k : std::string());
  if (policy == job::host_copy::drop && installed) {
    spdlog::warn(
        "key {}: host_copy = drop, but it was installed in the pool and the server knows no file of it to "
        "read its points back from: it keeps its host copy (name its .zkey with --key to drop it)",
        k);
    policy = job::host_copy::keep;
  }
  if (policy == job::host_copy::drop) {
    sizing::key_dims dims;
    try {
      dims = io::dims_of(io::read_zkey_shape_file(k));
    } catch (const std::exception& e) {
      throw std::runtime_error("key " + k + ": " + util::printable(e.what()));
    }
    if (!backend.would_stay_resident(dims)) {
      spdlog::warn(
          "key {}: host_copy = drop, but it would not stay resident on every GPU ({}): it keeps its host "
          "copy, from which it is {}",
          k,
          backend.name() == "cpu" ? "the CPU backend proves from host memory"
                                  : "it does not fit beside the keys already there",
          backend.name() == "cpu" ? "proven" : "streamed");
      policy = job::host_copy::keep;
    }
  }
  const auto id = installed ? k : keys_.load(k, policy);  // a file's load has checked its content
  auto pk = keys_.get(id, !installed);
  if (!installed) preloaded_[std::filesystem::absolute(k).lexically_normal().string()] = id;
  const bool everywhere = backend.attach_key(id, pk);
  if (policy == job::host_copy::drop) {
    if (!everywhere)
      throw std::runtime_error("key " + k +
                               ": host_copy = drop, but it could not be made resident on every GPU; "
                               "start with --host-copy-keep " +
                               k);
    backend.forget_host_copy(pk);
    const std::uint64_t n = keys_.release_points(id);
    spdlog::info(
        "key {} ({}): host_copy = drop: its {:.2f} GiB of points left host memory (every GPU holds them; a "
        "restart reads them from the file)",
        id, k, double(n) / double(1ULL << 30));
  }
  policy_[id] = policy;
  if (installed) verify(id, pk);
  spdlog::info("key {} ({}): domain 2^{}, {} witness values, host_copy = {}, loaded in {:.2f} s", id, k,
               pk->log_domain(), pk->n_vars, policy == job::host_copy::drop ? "drop" : "keep",
               std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
}

std::vector<key_store::host_memory> key_store::host_copies() const {
  std::vector<host_memory> v;
  for (const auto& [id, policy] : policy_) {
    auto r = shm::srs_region::open(opt_.pool, id);
    if (!r) continue;
    v.push_back({id, policy, shm::srs_region_bytes(r->bytes().size()) - r->released_bytes()});
  }
  return v;
}

std::vector<std::string> key_store::held() const {
  std::set<std::string> ids(loading_keys_.begin(), loading_keys_.end());
  for (const auto& id : keys_.ids()) ids.insert(id);
  for (const auto& [path, id] : preloaded_) ids.insert(id);
  for (const auto& k : opt_.keys)
    if (shm::is_key_id(k)) ids.insert(k);
  return {ids.begin(), ids.end()};
}

std::optional<std::string> key_store::refusal(const std::string& zkey) const {
  if (shm::is_key_id(zkey) || preloaded_.count(std::filesystem::path(zkey).lexically_normal().string()))
    return std::nullopt;
  return files_.lexical_refusal(zkey);
}

job::any_key key_store::resolve(const std::string& zkey, const net::peer_credentials& who, std::string& key_id) {
  std::unique_lock lk(key_mu_);
  if (shm::is_key_id(zkey)) {
    if (!may_name(who, zkey))  // as for an id the pool does not hold: ids are no secret, the keys may be
      throw job::job_error("the pool holds no key " + zkey + " (an operator installs keys with cuzk-shm load-srs)");
    key_id = zkey;
    return keys_.get(zkey);
  }
  if (auto it = preloaded_.find(std::filesystem::path(zkey).lexically_normal().string()); it != preloaded_.end()) {
    key_id = it->second;
    return keys_.get(key_id);
  }
  auto f = files_.open(who, zkey);
  if (!f) throw job::job_error(f.error());
  shm::failpoint("server.key.loaded");  // crash tests: die while resolving a client's key
  // The same file (device, inode, size, mtime) as an earlier Submit: its
  // region exists, so the file need not be hashed again.
  if (auto it = key_by_file_.find(f->identity()); it != key_by_file_.end()) {
    key_id = it->second;
    try {
      auto pk = keys_.get(key_id);
      remember_file(key_files_of_[key_id], zkey, f->identity());
      return pk;
    } catch (const std::exception&) {
      key_by_file_.erase(it);  // its region was destroyed: load it again
    }
  }
  lk.unlock();  // hashing and copying a large key must not hold up other submissions
  std::string why;
  auto srs = shm::srs_region::load(opt_.pool, f->fd(), zkey, &why, shm::srs_origin::client_file);
  if (!srs) throw job::job_error("cannot load the key " + zkey + ": " + why);
  key_id = srs->key_id();
  try {
    std::lock_guard again(key_mu_);
    auto pk = keys_.get(key_id);
    key_by_file_[f->identity()] = key_id;
    remember_file(key_files_of_[key_id], zkey, f->identity());
    return pk;
  } catch (const std::exception&) {
    drop_unused(key_id);  // not a key: do not keep its copy in shared memory
    throw;
  }
}

// Key ids are content hashes anyone may compute or see in shared memory, so an id
// alone proves nothing: a client names by id a key the operator installed,
// or one whose file (under a keys directory) it can read itself now.
bool key_store::may_name(const net::peer_credentials& who, const std::string& key_id) const {
  if (opt_.is_operator(who.uid) || std::find(opt_.keys.begin(), opt_.keys.end(), key_id) != opt_.keys.end())
    return true;
  for (const auto& [path, id] : preloaded_)
    if (id == key_id) return true;
  if (auto it = key_files_of_.find(key_id); it != key_files_of_.end() && !is_remote_uid(who.uid))
    for (const auto& [path, identity] : it->second)
      if (auto f = files_.open(who, path); f && f->identity() == identity) return true;
  auto srs = shm::srs_region::open(opt_.pool, key_id);
  return srs && srs->origin() == shm::srs_origin::installed;
}

// A key a client's path brought into shared memory that no job can use is removed
// again, unless a job names it (pool threads; the job table is only read).
void key_store::drop_unused(const std::string& key_id) {
  bool used = false;
  jobs_.for_each(
      [&](shm::job_ref, const shm::job_record& rec) { used = used || shm::field_text(rec.key_id) == key_id; });
  for (const auto& [path, id] : preloaded_) used = used || id == key_id;
  if (used) return;
  {
    std::lock_guard lk(key_mu_);
    keys_.forget(key_id);
    key_files_of_.erase(key_id);
  }
  (void)shm::srs_region::destroy(opt_.pool, key_id);
}

job::any_key key_store::ready(const std::string& key_id) {
  if (auto pk = keys_.find(key_id)) return pk;
  if (!loading_keys_.insert(key_id).second) return nullptr;
  boost::asio::post(pool_, [this, key_id] {
    job::any_key pk;
    std::string error;
    try {
      pk = keys_.get(key_id);
    } catch (const std::exception& e) {
      error = e.what();
    }
    boost::asio::post(io_, [this, key_id, pk, error] { loaded(key_id, pk, error); });
  });
  return nullptr;
}

void key_store::verify(const std::string& key_id, job::any_key pk) {
  loading_keys_.insert(key_id);
  boost::asio::post(pool_, [this, key_id, pk] {
    const auto t0 = std::chrono::steady_clock::now();
    std::string error;
    try {
      keys_.verify(key_id);
    } catch (const std::exception& e) {
      error = e.what();
    }
    if (error.empty())
      spdlog::info("key {}: its SRS region hashes to its id (checked in {:.2f} s while serving)", key_id,
                   std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    boost::asio::post(io_,
                      [this, key_id, pk = error.empty() ? pk : job::any_key(), error] { loaded(key_id, pk, error); });
  });
}

void key_store::loaded(const std::string& key_id, job::any_key pk, const std::string& error) {
  loading_keys_.erase(key_id);
  if (!pk) {  // the key is gone or corrupt: its jobs cannot be proven
    keys_.forget(key_id);
    spdlog::warn("key {}: {}", key_id, util::printable(error));
    hooks_.failed(key_id, error);
  }
  hooks_.ready();
}

std::set<std::string> key_store::pinned() const {
  std::set<std::string> ids;
  for (const auto& [path, id] : preloaded_) ids.insert(id);
  for (const auto& k : opt_.keys)
    if (shm::is_key_id(k)) ids.insert(k);
  jobs_.for_each([&](shm::job_ref, const shm::job_record& rec) {
    if (shm::job_word_state(rec) == shm::job_state::active) ids.insert(std::string(shm::field_text(rec.key_id)));
  });
  return ids;
}

}  // namespace cuzk::server
