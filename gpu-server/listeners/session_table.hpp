// A listener's open connections, each under the number the listener gives it, bounded per key (a client's uid on
// ipc, a peer's address on TCP) and in total: admit() refuses the excess, counting it and warning at most once
// every 10 s (a flood must not flood the journal); remove() gives the place back and tells on_close. Both
// listeners' states are one (the owner zmtp_connection.hpp and accept_loop.hpp need: counters, warn, remove).
// Counters has accepted, refused_total and the per-key refusal the wording names.
#pragma once

#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>

namespace cuzk::server {

template <class Key, class Session, class Counters>
struct session_table {
  struct bounds {
    std::uint32_t total, per_key;
  };
  /* A refusal reads "refused WHO: N OPEN are open, the limit is T" or "refused WHO: it holds M connections, the
     limit per PER is P"; every warning starts with prefix. */
  struct wording {
    std::string prefix, open, per;
    std::uint64_t Counters::*refused_per_key;
  };

  session_table(bounds b, wording w, std::function<void(std::uint64_t)> on_close)
      : bound(b), words(std::move(w)), on_close(std::move(on_close)) {}

  bounds bound;
  wording words;
  std::function<void(std::uint64_t)> on_close;
  std::map<std::uint64_t, std::shared_ptr<Session>> sessions;
  Counters counters;

  void warn(const std::string& what) {
    const auto now = std::chrono::steady_clock::now();
    if (now - last_warning_ < std::chrono::seconds(10)) return;
    last_warning_ = now;
    spdlog::warn("{}{}", words.prefix, what);
  }

  /* One more connection of `key`, made by make(id) and kept under id; none (counted, warned of as `who`) when it
     would pass the total or the per-key bound. */
  template <class Make>
  std::shared_ptr<Session> admit(const Key& key, const std::string& who, Make&& make) {
    if (sessions.size() >= bound.total) {
      ++counters.refused_total;
      warn("refused " + who + ": " + std::to_string(sessions.size()) + " " + words.open + " are open, the limit is " +
           std::to_string(bound.total));
      return nullptr;
    }
    auto& mine = per_key_[key];
    if (mine >= bound.per_key) {
      ++(counters.*words.refused_per_key);
      warn("refused " + who + ": it holds " + std::to_string(mine) + " connections, the limit per " + words.per +
           " is " + std::to_string(bound.per_key));
      return nullptr;
    }
    ++mine;
    ++counters.accepted;
    const auto id = next_id_++;
    auto s = std::shared_ptr<Session>(make(id));
    sessions.emplace(id, s);
    keys_.emplace(id, key);
    return s;
  }

  void remove(std::uint64_t id) {
    auto it = sessions.find(id);
    if (it == sessions.end()) return;
    sessions.erase(it);
    const auto k = keys_.extract(id);
    if (--per_key_[k.mapped()] == 0) per_key_.erase(k.mapped());
    if (on_close) on_close(id);
  }

  std::shared_ptr<Session> find(std::uint64_t id) const {
    auto it = sessions.find(id);
    return it == sessions.end() ? nullptr : it->second;
  }

  std::uint32_t connections_of(const Key& key) const {
    auto it = per_key_.find(key);
    return it == per_key_.end() ? 0 : it->second;
  }

  /* Closes every connection without telling on_close (the listener is going away). */
  void close_all() {
    auto all = std::move(sessions);
    sessions.clear();
    on_close = nullptr;
    for (auto& [id, s] : all) s->close();
  }

 private:
  std::map<std::uint64_t, Key> keys_;
  std::map<Key, std::uint32_t> per_key_;
  std::uint64_t next_id_ = 1;
  std::chrono::steady_clock::time_point last_warning_{};
};

}  // namespace cuzk::server
