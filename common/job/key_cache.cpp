#include "job/key_cache.hpp"

#include "io/zkey.hpp"
#include "job/spec.hpp"
#include "shm/srs_region.hpp"

namespace cuzk::job {

namespace {

std::shared_ptr<const groth16::proving_key> parse(const shm::srs_region& srs, const std::string& what) {
  try {
    return std::make_shared<const groth16::proving_key>(io::read_zkey(srs.bytes()));
  } catch (const std::exception& e) {
    throw job_error(what + " is not a valid .zkey: " + e.what());
  }
}

}  // namespace

std::string key_cache::load(const std::filesystem::path& zkey) {
  std::string why;
  auto srs = shm::srs_region::load(pool_, zkey, &why);
  if (!srs)
    throw job_error("cannot load the key " + zkey.string() + ": " + (why.empty() ? std::string(to_string(srs.error())) : why));
  const std::string id = srs->key_id();
  if (!keys_.count(id)) insert(id, parse(*srs, zkey.string()));
  used_[id] = ++clock_;
  return id;
}

std::shared_ptr<const groth16::proving_key> key_cache::get(const std::string& key_id) {
  if (auto it = keys_.find(key_id); it != keys_.end()) {
    used_[key_id] = ++clock_;
    return it->second;
  }
  std::string why;
  auto srs = shm::srs_region::open(pool_, key_id, &why);
  if (!srs)
    throw job_error("the pool holds no key " + key_id + ": " + (why.empty() ? std::string(to_string(srs.error())) : why));
  return insert(key_id, parse(*srs, "SRS region " + key_id));
}

std::shared_ptr<const groth16::proving_key> key_cache::insert(const std::string& key_id,
                                                               std::shared_ptr<const groth16::proving_key> pk) {
  while (keys_.size() >= capacity_) {  // evict the least recently used
    auto lru = used_.begin();
    for (auto it = used_.begin(); it != used_.end(); ++it)
      if (it->second < lru->second) lru = it;
    keys_.erase(lru->first);
    used_.erase(lru);
  }
  keys_[key_id] = pk;
  used_[key_id] = ++clock_;
  return pk;
}

}  // namespace cuzk::job
