// The order of one proving worker's proofs (cuda/engine/engine.hpp: a worker's
// lanes): one proof at a time owns the worker's streams and buffers; the next
// may stage — copy its inputs into the buffers — as soon as the owner has
// consumed its own (its NTTs and z's split are queued before an event the
// copies wait for), so the copy runs while the owner's MSMs do, and owns the
// worker when the owner leaves. Host-only (no CUDA), so the unit tests hold
// the order.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <utility>

namespace cuzk::cuda {

class proof_gate {
 public:
  /* Called while waiting (every poll_ms): throws to give up (groth16::phase_boundary on a stop flag). */
  using check_fn = std::function<void()>;
  static constexpr std::chrono::milliseconds poll{2};

  /* A proof's place at the gate: owner, or staged (may copy its inputs now, owns the worker after run()). Its
     end leaves the worker to the staged proof, if any, or gives up the stage. */
  class ticket {
   public:
    ticket() = default;
    ticket(ticket&& o) noexcept : g_(std::exchange(o.g_, nullptr)), staged_(o.staged_) {}
    ticket& operator=(ticket&&) = delete;
    ~ticket() {
      if (!g_) return;
      {
        std::lock_guard lk(g_->mu_);
        if (staged_)
          g_->staged_ = false;
        else
          g_->owner_ = nullptr, g_->inputs_free_ = false;
      }
      g_->cv_.notify_all();
    }

    /* true: staged; copy the inputs behind the owner's event, then run() */
    bool staged() const { return staged_; }

    /* A staged proof: blocks until the owner leaves, then owns the worker. */
    void run(const check_fn& check) {
      if (!staged_) return;
      std::unique_lock lk(g_->mu_);
      g_->wait(lk, check, [&] { return !g_->owner_; });
      g_->owner_ = buffers_, g_->inputs_free_ = false, g_->staged_ = false;
      staged_ = false;
    }

    /* The owner: its last reads of its inputs are queued; the next proof on the same buffers may stage. */
    void inputs_consumed() {
      if (staged_ || !g_) return;
      {
        std::lock_guard lk(g_->mu_);
        g_->inputs_free_ = true;
      }
      g_->cv_.notify_all();
    }

   private:
    friend class proof_gate;
    ticket(proof_gate* g, const void* buffers, bool staged) : g_(g), buffers_(buffers), staged_(staged) {}
    proof_gate* g_ = nullptr;
    const void* buffers_ = nullptr;
    bool staged_ = false;
  };

  /* Blocks until the caller owns the worker (no proof owns it and none is staged) or may stage (the owner
     proves on the same buffers and has consumed its inputs, and no other proof is staged). buffers names the
     caller's (one set a curve); stage = false waits to own. */
  ticket enter(const void* buffers, bool stage, const check_fn& check) {
    std::unique_lock lk(mu_);
    bool staging = false;
    wait(lk, check, [&] {
      staging = false;
      if (!owner_ && !staged_) return true;
      staging = stage && owner_ == buffers && inputs_free_ && !staged_;
      return staging;
    });
    if (staging)
      staged_ = true;
    else
      owner_ = buffers, inputs_free_ = false;
    return ticket(this, buffers, staging);
  }

  /* for tests and logs: a proof owns the worker / one is staged */
  bool owned() const {
    std::lock_guard lk(mu_);
    return owner_ != nullptr;
  }
  bool staged() const {
    std::lock_guard lk(mu_);
    return staged_;
  }

 private:
  template <class Pred>
  void wait(std::unique_lock<std::mutex>& lk, const check_fn& check, Pred ready) {
    while (!ready()) {
      if (check) {
        lk.unlock();
        check();  // may throw: nothing taken yet
        lk.lock();
        if (ready()) break;
      }
      cv_.wait_for(lk, poll);
    }
  }

  mutable std::mutex mu_;
  std::condition_variable cv_;
  const void* owner_ = nullptr;  // the buffers of the proof that owns the worker; null: none
  bool inputs_free_ = false;     // the owner has consumed its inputs
  bool staged_ = false;          // a proof has staged (its inputs are, or are being, copied into the buffers)
};

}  // namespace cuzk::cuda
