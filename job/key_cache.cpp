#include "job/key_cache.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <set>

#include <spdlog/spdlog.h>

#include <fcntl.h>

#include "io/zkey.hpp"
#include "io/zkey_layout.hpp"
#include "job/file_identity.hpp"
#include "job/region_points.hpp"
#include "job/spec.hpp"
#include "r1cs/input_file.hpp"
#include "shm/srs_region.hpp"
#include "util/fd_guard.hpp"

namespace cuzk::job {

namespace {

/* Key ids whose SRS region this process has seen hash to its id. */
std::mutex verified_mu;
std::set<std::string> verified_ids;

/* A region's content must hash to its key id before it is parsed: a region
   someone else wrote must never be used for a proof. */
void check_content(const shm::srs_region& srs) {
  std::lock_guard lk(verified_mu);
  if (verified_ids.count(srs.key_id())) return;
  if (!srs.verified() && !srs.verify())
    throw job_error("SRS region " + srs.key_id() +
                    " does not hash to its key id: its content is not the key it names; refusing it");
  verified_ids.insert(srs.key_id());
}

/* A verified region of a native circuit's key: its coefficients (section 4's records), which no job
   reads, leave memory. Logged; a failure only keeps them. */
void release_unread_of(const std::string& pool, const shm::srs_region& srs) {
  try {
    const auto k = io::read_zkey_shape(srs.bytes());
    if (!k.native || !k.n_coefs) return;
    std::string why;
    const std::uint64_t n = k.n_coefs * io::zkey_coef_bytes;
    for (const auto& r : srs.released())
      if (r.offset == k.coefs_offset && r.bytes == n) return;
    if (auto r = shm::srs_region::release(pool, srs.key_id(), k.coefs_offset, n, &why, srs.verified()))
      spdlog::info(
          "key {}: a native circuit's key: its {:.2f} GiB of A/B coefficients released from its SRS region "
          "(they stay in its .zkey for snarkjs)",
          srs.key_id(), double(n) / (1ULL << 30));
    else
      spdlog::warn("key {}: its coefficients stay in memory: {}", srs.key_id(),
                   why.empty() ? to_string(r.error()) : why);
  } catch (const std::exception& e) {
    spdlog::warn("key {}: its coefficients stay in memory: {}", srs.key_id(), e.what());
  }
}

/* The parsed key keeps its region mapped: a GPU uploads its bases from there
   (groth16::mapped_bases). Its curve is the one its primes name. */
any_key parse(shm::srs_region&& region, const std::string& what, bool points, bool verify = true,
              const std::string* release_in_pool = nullptr) {
  if (verify) check_content(region);
  if (verify && release_in_pool) release_unread_of(*release_in_pool, region);
  auto srs = std::make_shared<const shm::srs_region>(std::move(region));
  try {
    return curves::visit(io::zkey_curve(srs->bytes()), [&](auto curve) -> any_key {
      using C = decltype(curve);
      auto pk = io::read_zkey_mapped<C>(srs->bytes(), srs, points);
      pk.mapped.source = std::make_shared<const region_points>(srs);
      return std::make_shared<const groth16::basic_proving_key<C>>(std::move(pk));
    });
  } catch (const std::exception& e) {
    throw job_error(what + " is not a valid .zkey: " + e.what());
  }
}

std::string explain(shm::error e, const std::string& why) { return why.empty() ? std::string(to_string(e)) : why; }

}  // namespace

std::string key_cache::load(const std::filesystem::path& zkey) {
  std::string why;
  auto srs = shm::srs_region::load(pool_, zkey, &why);
  if (!srs) throw job_error("cannot load the key " + zkey.string() + ": " + explain(srs.error(), why));
  const std::string id = srs->key_id();
  if (!find(id)) insert(id, parse(std::move(*srs), zkey.string(), decode_points_, true, releasing()));
  return id;
}

namespace {

std::vector<std::pair<std::uint64_t, std::uint64_t>> point_sections(const io::zkey_shape& k) {
  return {k.points.begin(), k.points.end()};
}

const region_points* points_of(const any_key& pk) {
  const region_points* p = nullptr;
  pk.visit([&](const auto& k) { p = dynamic_cast<const region_points*>(k.mapped.source.get()); });
  return p;
}

}  // namespace

std::string key_cache::load(const std::filesystem::path& zkey, host_copy policy) {
  const std::string name = zkey.string();
  util::fd_guard fd{open_identified(name, "", "key file")};
  io::zkey_shape shape;
  try {
    const int dup = ::fcntl(fd.fd, F_DUPFD_CLOEXEC, 0);  // input_file closes what it is given
    if (dup < 0) throw std::runtime_error(std::strerror(errno));
    shape = io::read_zkey_shape(r1cs::input_file(dup, name, "zkey"));
  } catch (const std::exception& e) {
    throw job_error(name + " is not a valid .zkey: " + e.what());
  }
  const auto points = point_sections(shape);
  std::string why;
  /* the same file as a region was loaded from: found without hashing the file (its points, when the region
     released them, are checked against the region's hashes as they are read back) */
  auto srs = shm::srs_region::find_loaded(pool_, fd.fd, &why);
  if (srs && srs->origin() != shm::srs_origin::installed)
    srs = shm::unexpected(shm::error::not_found);  // load marks it
  if (srs)
    spdlog::info("key {}: its SRS region was loaded from this very file ({}): not hashed again", srs->key_id(), name);
  else if (srs.error() != shm::error::not_found)
    throw job_error("cannot load the key " + name + ": " + explain(srs.error(), why));
  else
    srs = policy == host_copy::drop
              ? shm::srs_region::load(pool_, fd.fd, name, &why, shm::srs_origin::installed, points)
              : shm::srs_region::load(pool_, fd.fd, name, &why);
  if (!srs) throw job_error("cannot load the key " + name + ": " + explain(srs.error(), why));
  const std::string id = srs->key_id();
  if (policy == host_copy::keep && srs->released_bytes()) {
    auto back = shm::srs_region::restore(pool_, id, fd.fd, name, &why, points);
    if (!back)
      throw job_error("cannot bring the points of the key " + name +
                      " back into memory: " + explain(back.error(), why));
    if (*back)
      spdlog::info("key {}: {:.2f} GiB of points read back from {} into its SRS region (host_copy = keep)", id,
                   double(*back) / double(1ULL << 30), name);
  }
  auto pk = find(id);
  if (!pk) pk = insert(id, parse(std::move(*srs), name, decode_points_, true, releasing()));
  if (policy == host_copy::drop)
    if (const auto* p = points_of(pk)) p->attach_file(fd.fd, name);
  return id;
}

std::uint64_t key_cache::release_points(const std::string& key_id) {
  std::string why;
  auto srs = shm::srs_region::open(pool_, key_id, &why);
  if (!srs) throw job_error("cannot release the points of key " + key_id + ": " + explain(srs.error(), why));
  const auto shape = io::read_zkey_shape(srs->bytes());
  bool checked;
  {
    std::lock_guard lk(verified_mu);
    checked = verified_ids.count(key_id) > 0;
  }
  auto r = shm::srs_region::release(pool_, key_id, point_sections(shape), &why, checked);
  if (!r) throw job_error("cannot release the points of key " + key_id + ": " + explain(r.error(), why));
  return *r;
}

std::string key_cache::load(int fd, std::string_view display_name) {
  std::string why;
  auto srs = shm::srs_region::load(pool_, fd, display_name, &why);
  if (!srs) throw job_error("cannot load the key " + std::string(display_name) + ": " + explain(srs.error(), why));
  const std::string id = srs->key_id();
  if (!find(id)) insert(id, parse(std::move(*srs), std::string(display_name), decode_points_, true, releasing()));
  return id;
}

any_key key_cache::get(const std::string& key_id, bool verify) {
  {
    std::unique_lock lk(mu_);
    if (auto it = keys_.find(key_id); it != keys_.end()) {
      used_[key_id] = ++clock_;
      if (!verify || !unverified_.count(key_id)) return it->second;
      auto pk = it->second;
      lk.unlock();
      this->verify(key_id);  // parsed unchecked: checked now (at once if verify() has run)
      return pk;
    }
  }
  std::string why;
  auto srs = shm::srs_region::open(pool_, key_id, &why);
  if (!srs && srs.error() == shm::error::not_found)
    throw job_error("the pool holds no key " + key_id + ": " + explain(srs.error(), why));
  if (!srs) throw job_error("cannot use the key " + key_id + ": " + explain(srs.error(), why));
  auto pk = parse(std::move(*srs), "SRS region " + key_id, decode_points_, verify, releasing());
  if (!verify) {
    std::lock_guard lk(mu_);
    if (!keys_.count(key_id)) unverified_.insert(key_id);
  }
  return insert(key_id, pk);
}

void key_cache::verify(const std::string& key_id) {
  std::string why;
  auto srs = shm::srs_region::open(pool_, key_id, &why);
  if (!srs) throw job_error("cannot check the key " + key_id + ": " + explain(srs.error(), why));
  check_content(*srs);
  if (release_unread_) release_unread_of(pool_, *srs);
  std::lock_guard lk(mu_);
  unverified_.erase(key_id);
}

any_key key_cache::find(const std::string& key_id) const {
  std::lock_guard lk(mu_);
  auto it = keys_.find(key_id);
  return it == keys_.end() || unverified_.count(key_id) ? any_key() : it->second;
}

std::vector<std::string> key_cache::ids() const {
  std::lock_guard lk(mu_);
  std::vector<std::string> v;
  for (const auto& [id, pk] : keys_) v.push_back(id);
  return v;
}

void key_cache::forget(const std::string& key_id) {
  std::lock_guard lk(mu_);
  keys_.erase(key_id);
  used_.erase(key_id);
  unverified_.erase(key_id);
}

void key_cache::trim() {
  std::lock_guard lk(mu_);
  trim_locked();
}

any_key key_cache::insert(const std::string& key_id, any_key pk) {
  std::lock_guard lk(mu_);
  used_[key_id] = ++clock_;
  auto [it, fresh] = keys_.emplace(key_id, std::move(pk));
  if (fresh) trim_locked();
  return it->second;
}

// Least recently used first, among the keys not pinned, until at most capacity_ of those stay.
void key_cache::trim_locked() {
  const auto pinned = pinned_ ? pinned_() : std::set<std::string>();
  std::vector<std::pair<std::uint64_t, std::string>> idle;
  for (const auto& [id, t] : used_)
    if (!pinned.count(id)) idle.emplace_back(t, id);
  if (idle.size() <= capacity_) return;
  std::sort(idle.begin(), idle.end());
  for (std::size_t i = 0; i + capacity_ < idle.size(); ++i) {
    keys_.erase(idle[i].second);
    unverified_.erase(idle[i].second);
    used_.erase(idle[i].second);
  }
}

}  // namespace cuzk::job
