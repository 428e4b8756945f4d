// The order of one CUDA worker's proofs (cuda/engine/proof_gate.hpp): one owns
// the worker at a time; the next stages (copies its inputs) only once the
// owner has consumed its own, on the same buffers, one at a time, and owns the
// worker before any proof that came later; a stop gives up the wait. Host-only.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

#include "cuda/engine/proof_gate.hpp"

namespace cuzk::cuda {
namespace {

using namespace std::chrono_literals;
using ticket = proof_gate::ticket;

const int bls = 0, bn = 0;
const void* const X = &bls;  // one curve's buffers
const void* const Y = &bn;   // the other's

/* A thread that enters the gate and keeps its ticket until told to leave. */
struct proof {
  std::atomic<bool> entered{false}, staged{false}, owns{false}, leave{false}, gave_up{false};
  std::thread t;
  proof(proof_gate& g, const void* buffers, bool stage, const std::atomic<bool>* stop = nullptr) {
    t = std::thread([&, buffers, stage, stop] {
      const auto check = [stop] {
        if (stop && stop->load()) throw std::runtime_error("stopped");
      };
      try {
        ticket tk = g.enter(buffers, stage, check);
        staged = tk.staged();
        entered = true;
        tk.run(check);
        owns = true;
        while (!leave) std::this_thread::sleep_for(1ms);
      } catch (const std::runtime_error&) {
        gave_up = true;
      }
    });
  }
  ~proof() {
    leave = true;
    t.join();
  }
};

bool eventually(const std::atomic<bool>& f) {
  for (int i = 0; i < 2000 && !f; ++i) std::this_thread::sleep_for(1ms);
  return f;
}
bool stays_false(const std::atomic<bool>& f) {
  std::this_thread::sleep_for(40ms);
  return !f;
}

TEST(ProofGate, OneProofOwnsTheWorkerAtATime) {
  proof_gate g;
  ticket a = g.enter(X, false, {});
  EXPECT_FALSE(a.staged());
  EXPECT_TRUE(g.owned());
  proof b(g, X, false);
  EXPECT_TRUE(stays_false(b.entered));
  { ticket gone = std::move(a); }
  EXPECT_TRUE(eventually(b.owns));
  EXPECT_FALSE(b.staged);
}

TEST(ProofGate, TheNextProofStagesOnceTheOwnerHasConsumedItsInputsAndOwnsWhenItLeaves) {
  proof_gate g;
  auto a = std::make_unique<ticket>(g.enter(X, true, {}));
  proof b(g, X, true);
  EXPECT_TRUE(stays_false(b.entered)) << "staged before the owner's inputs were consumed";
  a->inputs_consumed();
  ASSERT_TRUE(eventually(b.entered));
  EXPECT_TRUE(b.staged);
  EXPECT_TRUE(g.staged());
  EXPECT_TRUE(stays_false(b.owns)) << "ran beside the owner";
  a.reset();
  EXPECT_TRUE(eventually(b.owns));
  EXPECT_FALSE(g.staged());
}

TEST(ProofGate, AProofOnTheOtherCurvesBuffersWaitsToOwn) {
  proof_gate g;
  auto a = std::make_unique<ticket>(g.enter(X, true, {}));
  a->inputs_consumed();
  proof b(g, Y, true);
  EXPECT_TRUE(stays_false(b.entered));
  a.reset();
  ASSERT_TRUE(eventually(b.owns));
  EXPECT_FALSE(b.staged);
}

TEST(ProofGate, OneProofStagesAtATimeAndTheStagedOneOwnsBeforeLaterOnes) {
  proof_gate g;
  auto a = std::make_unique<ticket>(g.enter(X, true, {}));
  a->inputs_consumed();
  proof b(g, X, true);
  ASSERT_TRUE(eventually(b.entered));
  ASSERT_TRUE(b.staged);
  proof c(g, X, true);   // another proof of the same curve: no second stage
  proof d(g, X, false);  // one that only owns
  EXPECT_TRUE(stays_false(c.entered));
  EXPECT_TRUE(stays_false(d.entered));
  a.reset();
  ASSERT_TRUE(eventually(b.owns));
  EXPECT_TRUE(stays_false(c.entered)) << "B has not consumed its inputs yet";
  EXPECT_TRUE(stays_false(d.entered));
  b.leave = true;
  b.t.join();
  b.t = std::thread([] {});
  /* B gone: C or D owns, the other waits */
  for (int i = 0; i < 2000 && !c.owns && !d.owns; ++i) std::this_thread::sleep_for(1ms);
  EXPECT_NE(c.owns.load(), d.owns.load());
  c.leave = true;  // the one waiting owns after the other leaves, then leaves too
  d.leave = true;
}

TEST(ProofGate, AStopGivesUpTheWaitAndTheStageAndLeavesTheOwnerAlone) {
  proof_gate g;
  auto a = std::make_unique<ticket>(g.enter(X, true, {}));
  std::atomic<bool> stop_b{false}, stop_c{false};
  proof c(g, X, true, &stop_c);  // waits to stage
  EXPECT_TRUE(stays_false(c.entered));
  stop_c = true;
  EXPECT_TRUE(eventually(c.gave_up));
  a->inputs_consumed();
  proof b(g, X, true, &stop_b);
  ASSERT_TRUE(eventually(b.entered));
  EXPECT_TRUE(b.staged);
  stop_b = true;  // while staged, waiting to own
  EXPECT_TRUE(eventually(b.gave_up));
  EXPECT_FALSE(g.staged()) << "the stage was not given up";
  EXPECT_TRUE(g.owned()) << "the owner lost the worker";
  proof d(g, X, true);  // the stage is free again
  ASSERT_TRUE(eventually(d.entered));
  EXPECT_TRUE(d.staged);
  a.reset();
  EXPECT_TRUE(eventually(d.owns));
}

TEST(ProofGate, AnOwnerThatNeverConsumedItsInputsLetsTheNextOneOwnDirectly) {
  proof_gate g;
  auto a = std::make_unique<ticket>(g.enter(X, true, {}));  // e.g. stopped before its NTTs
  proof b(g, X, true);
  EXPECT_TRUE(stays_false(b.entered));
  a.reset();
  ASSERT_TRUE(eventually(b.owns));
  EXPECT_FALSE(b.staged);
}

}  // namespace
}  // namespace cuzk::cuda
