// A Submit's preparation, on the pool (never the loop): resolve the key
// (installed by id, preloaded with --key, or a file under an allow-listed
// keys directory that the client could read, by path or by the id it was
// loaded under), size the work against it
// (a counting run bounded by the key's domain), and check a circom witness's
// and constraint system's headers through descriptors opened under the
// witness policy.
#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <tuple>

#include <nlohmann/json.hpp>

#include "circuits/registry.hpp"
#include "groth16/prover.hpp"
#include "job/file_identity.hpp"
#include "job/result.hpp"
#include "job/spec.hpp"
#include "job/synthesize.hpp"
#include "r1cs/error.hpp"
#include "r1cs/input_file.hpp"
#include "r1cs/r1cs_file.hpp"
#include "r1cs/wtns_file.hpp"
#include "server.hpp"
#include "curves/dispatch.hpp"
#include "r1cs/binfile.hpp"
#include "r1cs/wtns_file.hpp"
#include "shm/failpoint.hpp"
#include "shm/srs_region.hpp"
#include "util/utf8.hpp"

namespace cuzk::server {

namespace {

using nlohmann::json;

/* A native circuit's sizes depend on its spec alone: each (spec, domain, wires) is counted once
   (44 s at 2^27) and remembered, the 256 most recent over curve C. */
template <class C>
std::optional<r1cs::counts> counted(const circuits::basic_circuit<C>& c, std::uint64_t domain, std::uint64_t wires) {
  using key_t = std::tuple<std::string, std::uint64_t, std::uint64_t>;
  static std::mutex mu;
  static std::map<key_t, std::pair<std::optional<r1cs::counts>, std::uint64_t>> memo;  // (counts, last use)
  static std::uint64_t uses = 0;
  const key_t k{c.spec(), domain, wires};
  {
    std::lock_guard lk(mu);
    if (auto it = memo.find(k); it != memo.end()) {
      it->second.second = ++uses;
      return it->second.first;
    }
  }
  auto n = c.count_within(domain, wires);  // not under the lock: other Submits go on
  std::lock_guard lk(mu);
  if (memo.size() >= 256)
    memo.erase(std::min_element(memo.begin(), memo.end(),
                                [](const auto& a, const auto& b) { return a.second.second < b.second.second; }));
  memo.insert_or_assign(k, std::pair(n, ++uses));
  return n;
}

/* Over the key's curve C: circuit_error for unknown circuits and inputs that
   do not parse; job_error when the circuit does not fit the key. The count
   stops as soon as the circuit outgrows the key, so a hostile size costs at
   most the key's domain. */
template <class C>
void check_native(const job::key_shape& pk, const proto::native_work& w, std::uint32_t partitions) {
  auto c = circuits::make_circuit<C>(w.circuit);
  const auto n = counted<C>(*c, pk.domain_size, pk.n_vars);
  if (!n)
    throw job::job_error("the key was made for another circuit (" + c->spec() + " is larger than the key's domain of " +
                         std::to_string(pk.domain_size) + " constraints)");
  if (n->inputs + n->aux != pk.n_vars || n->inputs != pk.n_public + 1)
    throw job::job_error("the key was made for another circuit (" + c->spec() + " has " +
                         std::to_string(n->inputs + n->aux) + " wires, the key " + std::to_string(pk.n_vars) + ")");
  json j = json::parse(w.inputs_json, nullptr, false);
  if (j.is_discarded()) throw job::job_error("the inputs are not JSON");
  if (j.is_array()) {
    if (j.size() != partitions)
      throw job::job_error("the inputs hold " + std::to_string(j.size()) + " partitions, the job has " +
                           std::to_string(partitions));
    for (const auto& e : j) c->parse_inputs(e);
  } else {
    c->parse_inputs(j);
  }
}

/* The .wtns witness count from its header sections, read with pread through
   the descriptor the policy opened (a dup: input_file closes its own): a few
   dozen bytes, never the whole file. */
/* The witness's count, after its curve was checked against the key's. */
std::uint64_t witness_count(int fd, const std::string& path, curves::curve_id key_curve) {
  const int own = ::dup(fd);
  if (own < 0) throw job::job_error("cannot read the witness " + path);
  r1cs::wtns_shape w;
  try {
    w = r1cs::read_wtns_shape(r1cs::input_file(own, path, "wtns"));
  } catch (const r1cs::format_error& e) {
    throw job::job_error("the witness " + path + " is not a valid .wtns file (" + e.what() + ")");
  }
  if (w.curve != key_curve) throw job::job_error(path + ": " + r1cs::curve_mismatch("the witness", w.curve, key_curve));
  return w.count;
}

/* The files (path → identity) a key was loaded from, a few per key: each is
   opened again when a client names the key by id. */
void remember_file(std::map<std::string, std::string>& files, const std::string& path, const std::string& identity) {
  constexpr std::size_t most = 16;
  if (!files.count(path) && files.size() >= most) files.erase(files.begin());
  files[path] = identity;
}

/* The .r1cs's header and section table against what the key allows, read
   with pread through the descriptor the policy opened: a few dozen bytes, so
   a file claiming a gigabyte of constraints is refused here, before any
   worker reads it. */
void check_constraint_system(int fd, const std::string& path, const job::key_shape& pk) {
  const int own = ::dup(fd);
  if (own < 0) throw job::job_error("cannot read the constraint system " + path);
  try {
    const auto shape = r1cs::read_r1cs_shape(r1cs::input_file(own, path, "r1cs"));
    if (shape.curve != pk.curve)
      throw r1cs::format_error(r1cs::curve_mismatch("the constraint system", shape.curve, pk.curve));
    r1cs::check_r1cs_shape(shape, job::r1cs_bounds_of(pk));
  } catch (const r1cs::format_error& e) {
    throw job::job_error("the constraint system " + path + " is refused: " + e.what());
  }
}

}  // namespace

job::any_key server::resolve_key(const std::string& zkey, const net::peer_credentials& who, std::string& key_id) {
  std::unique_lock lk(key_mu_);
  if (shm::is_key_id(zkey)) {
    if (!may_name_key(who, zkey))  // as for an id the pool does not hold: ids are no secret, the keys may be
      throw job::job_error("the pool holds no key " + zkey + " (an operator installs keys with cuzk-shm load-srs)");
    key_id = zkey;
    return keys_.get(zkey);
  }
  if (auto it = preloaded_.find(std::filesystem::path(zkey).lexically_normal().string()); it != preloaded_.end()) {
    key_id = it->second;
    return keys_.get(key_id);
  }
  auto f = key_files_.open(who, zkey);
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
    drop_unused_key(key_id);  // not a key: do not keep its copy in shared memory
    throw;
  }
}

// Key ids are content hashes anyone may compute or see in shared memory, so an id
// alone proves nothing: a client names by id a key the operator installed,
// or one whose file (under a keys directory) it can read itself now.
bool server::may_name_key(const net::peer_credentials& who, const std::string& key_id) const {
  if (is_operator(who.uid) || std::find(opt_.keys.begin(), opt_.keys.end(), key_id) != opt_.keys.end()) return true;
  for (const auto& [path, id] : preloaded_)
    if (id == key_id) return true;
  if (auto it = key_files_of_.find(key_id); it != key_files_of_.end())
    for (const auto& [path, identity] : it->second)
      if (auto f = key_files_.open(who, path); f && f->identity() == identity) return true;
  auto srs = shm::srs_region::open(opt_.pool, key_id);
  return srs && srs->origin() == shm::srs_origin::installed;
}

// A key a client's path brought into shared memory that no job can use is removed
// again, unless a job names it (pool threads; the job table is only read).
void server::drop_unused_key(const std::string& key_id) {
  bool used = false;
  jobs_->for_each([&](shm::job_ref, const shm::job_record& rec) { used = used || shm::field_text(rec.key_id) == key_id; });
  for (const auto& [path, id] : preloaded_) used = used || id == key_id;
  if (used) return;
  {
    std::lock_guard lk(key_mu_);
    keys_.forget(key_id);
    key_files_of_.erase(key_id);
  }
  (void)shm::srs_region::destroy(opt_.pool, key_id);
}

server::prepared server::prepare(const proto::submit& s, const net::peer_credentials& who) {
  prepared r;
  try {
    r.pk = resolve_key(s.zkey, who, r.key_id);
    const auto& pk = r.pk.shape();
    const bool by_path = !shm::is_key_id(s.zkey);
    if (!slots_->class_for(pk.domain_size, pk.n_vars)) {
      r.code = proto::error_code::bad_request;
      r.error = "no slot class of pool " + opt_.pool + " holds domain 2^" + std::to_string(pk.log_domain()) + " with " +
                std::to_string(pk.n_vars) + " witness values; create the pool with a larger --slots class";
      if (by_path) drop_unused_key(r.key_id);
      return r;
    }
    if (job::result_bytes_for(pk.curve, pk.n_public) > shm::result_bytes) {
      r.code = proto::error_code::bad_request;
      r.error = "the key has " + std::to_string(pk.n_public) + " public signals; a job's proof and public signals " +
                "must fit " + std::to_string(shm::result_bytes) + " bytes (at most " +
                std::to_string((shm::result_bytes - job::result_bytes_for(pk.curve, 0)) / 32) + " public signals)";
      if (by_path) drop_unused_key(r.key_id);
      return r;
    }
    job::spec sp;
    sp.zkey = s.zkey;
    if (const auto* n = std::get_if<proto::native_work>(&s.work)) {
      curves::visit(pk.curve, [&](auto curve) { check_native<decltype(curve)>(pk, *n, s.partitions); });
      sp.circuit = n->circuit;
      sp.inputs = n->inputs_json;
    } else {
      const auto& c = std::get<proto::circom_work>(s.work);
      auto w = witness_files_.open(who, c.wtns);
      if (!w) throw job::job_error(w.error());
      const auto count = witness_count(w->fd(), c.wtns, pk.curve);
      if (count != pk.n_vars)
        throw job::job_error("the witness has " + std::to_string(count) + " values, the key expects " +
                             std::to_string(pk.n_vars) + " (witness of another circuit?)");
      sp.wtns = c.wtns;
      sp.wtns_identity = w->identity();
      if (c.r1cs) {
        auto f = witness_files_.open(who, *c.r1cs);
        if (!f) throw job::job_error(f.error());
        check_constraint_system(f->fd(), *c.r1cs, pk);
        sp.r1cs = *c.r1cs;
        sp.r1cs_identity = f->identity();
      }
    }
    if (s.blinding) {
      sp.blinding = s.blinding->r + "," + s.blinding->s;
      const bool below_r = curves::visit(pk.curve, [&](auto curve) {
        return groth16::basic_blinding<decltype(curve)>::parse(*sp.blinding).has_value();
      });
      if (!below_r) {  // else the prover would silently draw random ones
        r.code = proto::error_code::bad_request;
        r.error = "the blinding values r and s must be below r";
        return r;
      }
    }
    r.spec_json = sp.to_json();
    if (r.spec_json.size() > shm::spec_bytes) {
      r.code = proto::error_code::too_large;
      r.error = "the job description is " + std::to_string(r.spec_json.size()) + " bytes, the job table holds " +
                std::to_string(shm::spec_bytes);
    }
  } catch (const circuits::circuit_error& e) {
    r.code = proto::error_code::unknown_circuit;
    r.error = e.what();
  } catch (const std::exception& e) {
    r.code = proto::error_code::bad_request;
    r.error = e.what();
  }
  return r;
}

job::any_key server::ready_key(const std::string& key_id) {
  if (auto it = ready_keys_.find(key_id); it != ready_keys_.end()) return it->second;
  if (!loading_keys_.insert(key_id).second) return nullptr;
  boost::asio::post(prep_, [this, key_id] {
    job::any_key pk;
    std::string error;
    try {
      std::lock_guard lk(key_mu_);
      pk = keys_.get(key_id);
    } catch (const std::exception& e) {
      error = e.what();
    }
    boost::asio::post(io_, [this, key_id, pk, error] { key_loaded(key_id, pk, error); });
  });
  return nullptr;
}

void server::verify_key(const std::string& key_id, job::any_key pk) {
  loading_keys_.insert(key_id);
  boost::asio::post(prep_, [this, key_id, pk] {
    const auto t0 = std::chrono::steady_clock::now();
    std::string error;
    try {
      keys_.verify(key_id);  // no cached key touched: key_mu_ stays free for Submits
    } catch (const std::exception& e) {
      error = e.what();
    }
    if (error.empty())
      spdlog::info("key {}: its SRS region hashes to its id (checked in {:.2f} s while serving)", key_id,
                   std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    boost::asio::post(io_, [this, key_id, pk = error.empty() ? pk : job::any_key(), error] {
      key_loaded(key_id, pk, error);
    });
  });
}

void server::key_loaded(const std::string& key_id, job::any_key pk, const std::string& error) {
  loading_keys_.erase(key_id);
  if (pk) {
    ready_keys_[key_id] = pk;
  } else {  // the key is gone or corrupt: its jobs cannot be proven
    spdlog::warn("key {}: {}", key_id, util::printable(error));
    jobs_->for_each([&](shm::job_ref j, const shm::job_record& rec) {
      if (shm::job_word_state(rec) != shm::job_state::active || shm::field_text(rec.key_id) != key_id) return;
      for (std::uint32_t p = 0; p < rec.n_partitions; ++p) (void)jobs_->fail(j, p, "the key cannot be loaded: " + error);
      queue_.drop(j);
      notify_waiters(j);
    });
  }
  dispatch();
}

// Parsed keys stay while a job needs them or they were preloaded; a few
// others are kept for the next Submit, the rest dropped.
void server::trim_ready_keys() {
  constexpr std::size_t keep_idle = 4;
  if (ready_keys_.size() <= keep_idle) return;
  std::set<std::string> used;
  for (const auto& [path, id] : preloaded_) used.insert(id);
  jobs_->for_each([&](shm::job_ref, const shm::job_record& rec) {
    if (shm::job_word_state(rec) == shm::job_state::active) used.insert(std::string(shm::field_text(rec.key_id)));
  });
  std::size_t idle = 0;
  for (auto it = ready_keys_.begin(); it != ready_keys_.end();) {
    if (!used.count(it->first) && ++idle > keep_idle) it = ready_keys_.erase(it);
    else ++it;
  }
}

}  // namespace cuzk::server
