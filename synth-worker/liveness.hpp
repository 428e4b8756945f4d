// When a worker's lease heartbeat may be refreshed. The server kills a
// worker whose heartbeat is older than its --hung-timeout while it holds a
// slot (shm::is_hung), so the heartbeat must stop when the worker stops
// making progress, not merely while the process exists. The rule, checked
// by the worker's heartbeat thread several times per grace period:
//   - the main loop (the only user of the socket) turned within the grace
//     period, and
//   - no synthesis is in hand, or it advanced (constraints or witness values
//     written, job::progress) within the grace period, or it is in a phase
//     that cannot report progress (key parsing, .wtns/.r1cs parsing and
//     evaluation, the fill's checksum): those are bounded by the synthesis
//     deadline instead. A synthesis counts as advancing when it starts.
// A synthesis that stops advancing therefore loses its slot after the grace
// period plus the server's --hung-timeout.
#pragma once

#include <cstdint>
#include <optional>

namespace cuzk::worker {

struct synthesis_view {
  std::uint64_t start_ns = 0;  // boot clock; identifies the synthesis
  std::uint64_t count = 0;     // job::progress::count()
  bool opaque = false;         // in a phase that cannot report
};

class liveness {
 public:
  explicit liveness(std::uint64_t grace_ns) : grace_(grace_ns) {}
  /* now and loop_ns on the boot clock; s: the synthesis in hand, if any. */
  bool alive(std::uint64_t now, std::uint64_t loop_ns, const std::optional<synthesis_view>& s) {
    if (s && s->start_ns != start_) {
      start_ = s->start_ns;
      count_ = s->count;
      advanced_ = s->start_ns;
    } else if (s && (s->count != count_ || s->opaque)) {
      count_ = s->count;
      advanced_ = now;
    }
    const bool loop_ok = now < loop_ns || now - loop_ns <= grace_;
    const bool synth_ok = !s || now < advanced_ || now - advanced_ <= grace_;
    return loop_ok && synth_ok;
  }

 private:
  std::uint64_t grace_;
  std::uint64_t start_ = 0, count_ = 0, advanced_ = 0;
};

}  // namespace cuzk::worker
