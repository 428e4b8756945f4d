// A stand-in for cuzk-gpu-server in client tests: a thread with a real
// ROUTER socket that keeps jobs in a map and answers Submit, StatusRequest,
// Fetch and Wait the way docs/protocol.md says the server does. Tests steer
// it (complete or fail a job, ignore requests) and read what it saw.
#pragma once

#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "proto/message.hpp"

namespace cuzk::test {

class fake_server {
 public:
  explicit fake_server(std::string endpoint);
  ~fake_server();

  /* Jobs submitted from now on are done at once, with these proofs. */
  void complete_on_submit(bool on) {
    std::lock_guard l(mu_);
    complete_on_submit_ = on;
  }
  void complete(const std::string& job_id);
  void fail(const std::string& job_id, const std::string& error);
  /* Drops the next n requests without an answer (a busy or restarting server). */
  void ignore_next(int n) { ignore_.store(n); }
  /* Sends a reply with the wrong request id before each real one. */
  void send_stale_replies(bool on) { stale_.store(on); }

  int requests(std::string_view kind) const;
  proto::submit last_submit() const;

 private:
  struct job {
    proto::submit request;
    proto::job_status status;
  };
  struct pending_wait {
    std::string peer;
    std::uint64_t request_id;
    std::string job_id;
    std::chrono::steady_clock::time_point deadline;
  };
  void loop();
  proto::body answer(const proto::message& m, const std::string& peer);
  proto::body outcome(const job& j) const;
  void finish(job& j, proto::job_state s, const std::string& error);

  std::string endpoint_;
  mutable std::mutex mu_;
  std::map<std::string, job> jobs_;
  std::map<std::string, int, std::less<>> seen_;
  std::vector<pending_wait> waits_;
  bool complete_on_submit_ = false;
  std::atomic<int> ignore_{0};
  std::atomic<bool> stale_{false};
  std::atomic<bool> stop_{false};
  std::atomic<bool> bound_{false};
  std::thread thread_;
};

}  // namespace cuzk::test
