// Deadlines on blocking sockets: a connection's thread arms a deadline
// before each read or write it does; a reaper thread shuts down every
// socket whose deadline has passed, so its blocked read or write returns
// with an error and its thread ends. What slowloris and a stalled reader
// meet, without an event loop.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <list>
#include <mutex>
#include <string>
#include <thread>

namespace cuzk::gateway {

class deadlines {
 public:
  using clock = std::chrono::steady_clock;
  struct entry {
    int fd;
    std::atomic<std::int64_t> due_ns{0};  // 0: none
    std::atomic<const char*> phase{""};
    std::atomic<bool> expired{false};
  };
  class armed {  // one connection's entry, removed with it
   public:
    armed(deadlines& d, int fd);
    ~armed();
    armed(const armed&) = delete;
    armed& operator=(const armed&) = delete;
    void arm(std::chrono::milliseconds in, const char* phase);
    void disarm();
    /* Whether the reaper shut the socket: the phase it was in, else nullptr. */
    const char* expired() const;

   private:
    deadlines& d_;
    std::list<entry>::iterator it_;
  };

  /* on_expiry(phase): called on the reaper's thread for each socket it shuts. */
  explicit deadlines(void (*on_expiry)(const char* phase));
  ~deadlines();

 private:
  void run();
  void (*on_expiry_)(const char*);
  std::mutex mu_;
  std::list<entry> entries_;
  std::atomic<bool> stop_{false};
  std::thread reaper_;
};

}  // namespace cuzk::gateway
