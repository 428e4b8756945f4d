// The server's line to the cluster database: every cluster_store call runs
// on one thread of its own (the loop never waits on PostgreSQL) and its
// answer is posted back to the loop; a second connection LISTENs for
// cuzk_done (a job finished: its waiters wake on any node) and cuzk_queued
// (a job waits: nodes claim at once rather than on their next poll). A
// database that goes away answers each call with a sentence; both threads
// reconnect on their own (the listener backing off from 0.5 s to 8 s), and
// a reconnected listener asks the loop to re-check what it may have missed.
#pragma once

#include <utility>  // before Boost 1.74 asio: its awaitable.hpp uses std::exchange without it

#include <atomic>
#include <boost/asio.hpp>
#include <boost/asio/thread_pool.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "cluster/cluster_store.hpp"
#include "util/expected.hpp"

namespace cuzk::server {

class cluster_link {
 public:
  /* The loop's: what the listener heard. */
  struct events {
    std::function<void(std::int64_t job)> done;  // a job finished (or failed) on some node
    std::function<void()> queued;                // a job waits to be claimed
    std::function<void()> resync;                // the listener (re)connected: notifications may have been missed
  };
  cluster_link(std::string conninfo, boost::asio::io_context& loop);
  ~cluster_link();
  cluster_link(const cluster_link&) = delete;
  cluster_link& operator=(const cluster_link&) = delete;

  /* The listener starts: what it hears goes to ev on the loop. */
  void listen(events ev);
  /* f(store) on the database thread; done(its value, or why the database could not answer) on the loop. */
  template <class R>
  void call(std::function<R(cluster_store&)> f, std::function<void(util::expected<R, std::string>)> done) {
    ++in_flight_;
    boost::asio::post(db_, [this, f = std::move(f), done = std::move(done)]() mutable {
      auto r = attempt<R>(f);
      boost::asio::post(loop_, [this, r = std::move(r), done = std::move(done)]() mutable {
        --in_flight_;
        done(std::move(r));
      });
    });
  }
  /* Calls not yet answered. */
  unsigned in_flight() const { return in_flight_; }
  /* The listener holds a connection. */
  bool listening() const { return listening_; }

 private:
  template <class R>
  util::expected<R, std::string> attempt(std::function<R(cluster_store&)>& f) {
    try {
      if (!migrated_) {
        store_.migrate();
        migrated_ = true;
      }
      return f(store_);
    } catch (const std::exception& e) {
      return util::unexpected<std::string>(e.what());
    }
  }
  void listen();

  std::string conninfo_;
  boost::asio::io_context& loop_;
  events ev_;
  cluster_store store_;  // the database thread's
  bool migrated_ = false;
  boost::asio::thread_pool db_{1};
  unsigned in_flight_ = 0;  // the loop's
  std::atomic<bool> stop_{false}, listening_{false};
  std::thread listener_;
};

}  // namespace cuzk::server
