#include "listeners/authorized_clients.hpp"

#include <spdlog/spdlog.h>
#include <sys/types.h>
#include <zmq.h>

#include <array>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "net/curve_keys.hpp"
#include "util/names.hpp"
#include "util/utf8.hpp"

namespace cuzk::server {

namespace {

std::string binary_key(const std::string& z85) {
  std::array<std::uint8_t, 32> bin{};
  if (!zmq_z85_decode(bin.data(), z85.c_str())) throw std::runtime_error("not a Z85 key");
  return std::string(reinterpret_cast<const char*>(bin.data()), bin.size());
}

struct entry {
  std::string file, name, key;
};

}  // namespace

uid_t network_uid(std::string_view name) {
  std::uint64_t h = 1469598103934665603ULL;  // FNV-1a
  for (unsigned char c : name) h = (h ^ c) * 1099511628211ULL;
  const auto u = static_cast<uid_t>((1ULL << 31) | (h & 0x7fffffffULL));
  return u == static_cast<uid_t>(-1) ? u - 1 : u;  // -1 is nobody's uid
}

bool is_client_name(std::string_view name) { return util::is_plain_name(name); }

authorized_clients::authorized_clients(std::filesystem::path dir) : dir_(std::move(dir)) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir_, ec))
    throw std::runtime_error("the clients directory " + dir_.string() + " does not exist (it holds NAME.pub files)");
  std::lock_guard lk(mu_);
  reload_if_changed(true);
}

// Called with mu_ held. Each file stands alone: the valid ones are the set,
// the refused ones are logged (once per change of what is refused). Two files
// in conflict (one key, or one uid) are both refused, except one that was
// authorized before: a file added later never revokes another.
void authorized_clients::reload_if_changed(bool first) {
  std::error_code ec;
  const auto t = std::filesystem::last_write_time(dir_, ec);
  const auto now = std::chrono::steady_clock::now();
  if (!first && !ec && t == seen_ && now - loaded_ < std::chrono::seconds(1)) return;
  loaded_ = now;
  seen_ = t;
  std::vector<entry> found;
  std::map<std::string, std::string> refused;
  try {
    for (const auto& e : std::filesystem::directory_iterator(dir_)) {
      const auto& p = e.path();
      std::error_code fe;
      if (p.extension() != ".pub" || !e.is_regular_file(fe)) continue;
      const auto name = p.stem().string();
      try {
        if (!is_client_name(name))
          throw std::runtime_error("a client name is 1-64 of A-Z a-z 0-9 . _ - (not starting with a dot)");
        found.push_back({p.string(), name, binary_key(net::read_curve_public(p))});
      } catch (const std::exception& ex) {
        refused[p.string()] = ex.what();
      }
    }
  } catch (const std::exception& ex) {  // the directory itself: nobody is authorized until it can be read
    if (first) throw std::runtime_error("the clients directory " + dir_.string() + ": " + ex.what());
    if (!by_key_.empty() || refused_ != std::map<std::string, std::string>{{dir_.string(), ex.what()}})
      spdlog::error("clients directory {}: {}; no network client is authorized until it can be read", dir_.string(),
                    util::printable(ex.what()));
    by_key_.clear();
    refused_ = {{dir_.string(), ex.what()}};
    return;
  }
  std::map<std::string, std::vector<const entry*>> by_key;
  std::map<uid_t, std::vector<const entry*>> by_uid;
  for (const auto& e : found) {
    by_key[e.key].push_back(&e);
    by_uid[network_uid(e.name)].push_back(&e);
  }
  auto was = [&](const entry* e) {
    auto it = by_key_.find(e->key);
    return it != by_key_.end() && it->second == e->name;
  };
  std::map<std::string, std::string> next;
  for (const auto& e : found) {
    const auto& same_key = by_key[e.key];
    const auto& same_uid = by_uid[network_uid(e.name)];
    if ((same_key.size() > 1 || same_uid.size() > 1) && !was(&e)) {
      refused[e.file] = same_key.size() > 1 ? "another file holds the same key"
                                            : "another client's name maps to the same uid; rename one";
      continue;
    }
    next[e.key] = e.name;
  }
  if (first && !refused.empty()) throw std::runtime_error(refused.begin()->first + ": " + refused.begin()->second);
  for (const auto& [file, why] : refused)
    if (auto it = refused_.find(file); it == refused_.end() || it->second != why)
      spdlog::error("clients directory: {} is refused: {}", util::printable(file), util::printable(why));
  refused_ = std::move(refused);
  if (next != by_key_ && (!first || !next.empty()))
    spdlog::info("clients directory {}: {} client key(s) authorized", dir_.string(), next.size());
  by_key_ = std::move(next);
}

std::optional<std::string> authorized_clients::name_of(std::string_view public_key) {
  std::lock_guard lk(mu_);
  reload_if_changed(false);
  auto it = by_key_.find(std::string(public_key));
  if (it == by_key_.end()) return std::nullopt;
  return it->second;
}

std::size_t authorized_clients::size() {
  std::lock_guard lk(mu_);
  return by_key_.size();
}

}  // namespace cuzk::server
