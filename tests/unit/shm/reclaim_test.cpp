#include "shm/reclaim.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pool_guard.hpp"
#include "shm/failpoint.hpp"
#include "shm/job_table.hpp"
#include "shm/lease.hpp"
#include "shm/slot_table.hpp"

namespace cuzk::shm {
namespace {

using test::pool_guard;

/* Lease indices nobody holds stand for dead processes: liveness is the lock. */
class Reclaim : public ::testing::Test {
 protected:
  static constexpr std::uint32_t dead_worker = 5, dead_server = 6;
  pool_guard g{"reclaim"};
  region r = region::create(g.small()).value();
  slot_table slots{r};
  job_table jobs{r};
  std::vector<std::uint8_t> proof = std::vector<std::uint8_t>(64, 7);

  job_ref submit(const std::string& id, std::uint32_t parts = 1) {
    return jobs.submit({id, "c", "k", "", priority::normal, parts})->job;
  }
  /* The server's two steps for one partition. */
  void dispatch(job_ref j, std::uint32_t p, std::uint64_t slot, std::uint32_t worker) {
    ASSERT_TRUE(jobs.mark_slotted(j, p, static_cast<std::uint32_t>(slot)));
    ASSERT_TRUE(slots.assign(slot, slots.word(slot)->generation, worker, j.index, j.generation, p));
  }
  slot_word word(std::uint64_t s) { return *slots.word(s); }
  part_word part(job_ref j, std::uint32_t p) { return *jobs.part(j, p); }
  job_state state(job_ref j) { return job_word_state(**jobs.get(j)); }
  /* Runs f in a child armed to die (SIGKILL) at failpoint `name`; true if it did. */
  template <class F>
  bool dies_at(const char* name, F f) {
    const pid_t pid = ::fork();
    if (pid == 0) {
      arm_failpoint(name);
      f();
      ::_exit(0);
    }
    int st = 0;
    ::waitpid(pid, &st, 0);
    return WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL;
  }
};

TEST_F(Reclaim, DeadWorkersAssignedSlotIsFreedAndItsPartitionRequeued) {
  job_ref j = submit("a");
  dispatch(j, 0, 0, dead_worker);
  auto rep = reclaim(r);
  ASSERT_TRUE(rep);
  EXPECT_EQ(rep->assigned_freed, 1u);
  EXPECT_EQ(rep->partitions_requeued, 1u);
  EXPECT_EQ(word(0), (slot_word{slot_state::free, no_lease, 1}));
  EXPECT_EQ(part(j, 0).state, part_state::queued);
  EXPECT_EQ(part(j, 0).attempts, 1u);
}

TEST_F(Reclaim, ALiveWorkersSlotIsLeftAlone) {
  auto l = lease::take(r, role::worker, "w");
  ASSERT_TRUE(l);
  job_ref j = submit("a");
  dispatch(j, 0, 0, l->index());
  auto rep = reclaim(r);
  ASSERT_TRUE(rep);
  EXPECT_EQ(rep->assigned_freed, 0u);
  EXPECT_EQ(word(0), (slot_word{slot_state::assigned, l->index(), 0}));
  EXPECT_EQ(part(j, 0).state, part_state::slotted);
}

TEST_F(Reclaim, AFilledSlotStaysFilledWhenItsWorkerDies) {
  job_ref j = submit("a");
  dispatch(j, 0, 0, dead_worker);
  ASSERT_TRUE(slots.fill(0, 0, dead_worker, {1, 1, 1, 0, true}));
  auto rep = reclaim(r);
  ASSERT_TRUE(rep);
  EXPECT_EQ(word(0), (slot_word{slot_state::filled, no_lease, 0}));
  EXPECT_EQ(part(j, 0).state, part_state::slotted);
  EXPECT_EQ(rep->filled_discarded, 0u);
}

TEST_F(Reclaim, ADeadServersProvingSlotIsFilledAgain) {
  job_ref j = submit("a");
  dispatch(j, 0, 0, dead_worker);
  ASSERT_TRUE(slots.fill(0, 0, dead_worker, {1, 1, 1, 0, true}));
  ASSERT_TRUE(slots.start_proving(0, 0, dead_server));
  auto rep = reclaim(r);
  ASSERT_TRUE(rep);
  EXPECT_EQ(rep->proving_refilled, 1u);
  EXPECT_EQ(word(0), (slot_word{slot_state::filled, no_lease, 0}));
  EXPECT_EQ(part(j, 0).state, part_state::slotted);
  EXPECT_TRUE(slots.start_proving(0, 0, dead_server));  // a new server proves it again, same generation
}

TEST_F(Reclaim, AnOwnerFilterTouchesOnlyThatOwner) {
  job_ref j = submit("a", 2);
  dispatch(j, 0, 0, dead_worker);
  dispatch(j, 1, 1, dead_worker + 1);
  auto rep = reclaim(r, dead_worker);
  ASSERT_TRUE(rep);
  EXPECT_EQ(rep->assigned_freed, 1u);
  EXPECT_FALSE(rep->reconciled);
  EXPECT_EQ(word(0).state, slot_state::free);
  EXPECT_EQ(word(1).state, slot_state::assigned);
  EXPECT_EQ(reclaim(r, max_leases).error(), error::wrong_owner);
}

TEST_F(Reclaim, DeadLeaseEntriesAreCleared) {
  auto& e = r.at<lease_entry>(r.header().lease_offset)[3];
  e.word.store((4ULL << 4) | 1);
  auto rep = reclaim(r);
  ASSERT_TRUE(rep);
  EXPECT_EQ(rep->leases_cleared, 1u);
  EXPECT_EQ(e.word.load(), 4ULL << 4);
}

TEST_F(Reclaim, TakingALeaseReclaimsWhatThePreviousHolderOfItsEntryLeft) {
  job_ref j = submit("a");
  dispatch(j, 0, 0, 0);  // owned by entry 0, whose holder is gone
  r.at<lease_entry>(r.header().lease_offset)[0].word.store(1);
  auto l = lease::take(r, role::worker, "new");
  ASSERT_TRUE(l);
  ASSERT_EQ(l->index(), 0u);
  EXPECT_EQ(word(0), (slot_word{slot_state::free, no_lease, 1}));
  EXPECT_EQ(part(j, 0).state, part_state::queued);
}

TEST_F(Reclaim, ASlottedPartitionWhoseSlotWasNeverAssignedIsRequeued) {
  job_ref j = submit("a");
  ASSERT_TRUE(jobs.mark_slotted(j, 0, 1));  // the server died before slot.assign
  auto rep = reclaim(r);
  ASSERT_TRUE(rep);
  EXPECT_TRUE(rep->reconciled);
  EXPECT_EQ(rep->partitions_requeued, 1u);
  EXPECT_EQ(part(j, 0).state, part_state::queued);
}

TEST_F(Reclaim, ASlottedPartitionPointingAtAnotherJobsSlotIsRequeued) {
  job_ref a = submit("a"), b = submit("b");
  dispatch(a, 0, 0, dead_worker);
  ASSERT_TRUE(slots.fill(0, 0, dead_worker, {1, 1, 1, 0, false}));
  ASSERT_TRUE(jobs.mark_slotted(b, 0, 0));  // slot 0 holds a, not b
  auto rep = reclaim(r);
  ASSERT_TRUE(rep);
  EXPECT_EQ(part(b, 0).state, part_state::queued);
  EXPECT_EQ(part(a, 0).state, part_state::slotted);
  EXPECT_EQ(word(0).state, slot_state::filled);
}

TEST_F(Reclaim, ANonFreeSlotBoundToAQueuedPartitionIsSlottedThere) {
  job_ref j = submit("a");
  ASSERT_TRUE(slots.assign(2, 0, dead_worker, j.index, j.generation, 0));
  ASSERT_TRUE(slots.fill(2, 0, dead_worker, {1, 1, 1, 0, false}));
  auto rep = reclaim(r);
  ASSERT_TRUE(rep);
  EXPECT_EQ(rep->partitions_slotted, 1u);
  EXPECT_EQ(part(j, 0).state, part_state::slotted);
  EXPECT_EQ(part(j, 0).slot, 2u);
  EXPECT_EQ(word(2).state, slot_state::filled);
}

TEST_F(Reclaim, AFilledSlotWhoseProofIsAlreadyStoredIsDiscarded) {
  job_ref j = submit("a", 2);
  dispatch(j, 0, 0, dead_worker);
  ASSERT_TRUE(slots.fill(0, 0, dead_worker, {1, 1, 1, 0, false}));
  ASSERT_TRUE(slots.start_proving(0, 0, dead_server));
  ASSERT_TRUE(jobs.store_result(j, 0, 0, proof));  // the server died before slot.release
  auto rep = reclaim(r);
  ASSERT_TRUE(rep);
  EXPECT_EQ(rep->proving_refilled, 1u);
  EXPECT_EQ(rep->filled_discarded, 1u);
  EXPECT_EQ(word(0), (slot_word{slot_state::free, no_lease, 1}));
  EXPECT_EQ(part(j, 0).state, part_state::done);
}

TEST_F(Reclaim, AFilledSlotOfAGoneOrFinishedJobIsDiscarded) {
  job_ref a = submit("a"), b = submit("b");
  dispatch(a, 0, 0, dead_worker);
  ASSERT_TRUE(slots.fill(0, 0, dead_worker, {1, 1, 1, 0, false}));
  ASSERT_TRUE(jobs.fail(a, 0, "cancelled"));
  // slot 1 bound to a job generation that no longer exists
  ASSERT_TRUE(slots.assign(1, 0, dead_worker, b.index, b.generation + 1, 0));
  ASSERT_TRUE(slots.fill(1, 0, dead_worker, {1, 1, 1, 0, false}));
  auto rep = reclaim(r);
  ASSERT_TRUE(rep);
  EXPECT_EQ(rep->filled_discarded, 2u);
  EXPECT_EQ(word(0), (slot_word{slot_state::free, no_lease, 1}));
  EXPECT_EQ(word(1), (slot_word{slot_state::free, no_lease, 1}));
  EXPECT_EQ(part(b, 0).state, part_state::queued);
}

TEST_F(Reclaim, AJobWhoseLastResultWasStoredIsCompleted) {
  job_ref j = submit("a");
  ASSERT_TRUE(jobs.mark_slotted(j, 0, 0));
  ASSERT_TRUE(slots.assign(0, 0, dead_worker, j.index, j.generation, 0));
  // store_result's partition CAS landed, the job word did not (crash between):
  auto& rec = r.at<job_record>(r.header().job_offset)[j.index];
  rec.parts[0].proof_generation = 0;
  rec.parts[0].word.store(part_word{part_state::done, 0, 0}.pack());
  auto rep = reclaim(r);
  ASSERT_TRUE(rep);
  EXPECT_EQ(rep->jobs_completed, 1u);
  EXPECT_EQ(state(j), job_state::done);
}

TEST_F(Reclaim, AReservedRecordOfADeadServerIsReleased) {
  auto& w = r.at<job_record>(r.header().job_offset)[2].word;
  w.store(job_word{job_state::reserved, 1}.pack());
  auto rep = reclaim(r);
  ASSERT_TRUE(rep);
  EXPECT_EQ(rep->records_released, 1u);
  EXPECT_EQ(job_word::unpack(w.load()), (job_word{job_state::free, 1}));
}

TEST_F(Reclaim, ReconcileWaitsWhileAnotherServerIsLive) {
  job_ref j = submit("a");
  ASSERT_TRUE(jobs.mark_slotted(j, 0, 1));  // a live server between its two steps
  auto server = lease::take(r, role::server, "gpu-server");
  ASSERT_TRUE(server);
  // take(server) itself reconciled (the server is the one writer): requeued.
  EXPECT_EQ(part(j, 0).state, part_state::queued);
  ASSERT_TRUE(jobs.mark_slotted(j, 0, 1));
  auto rep = reclaim(r);
  ASSERT_TRUE(rep);
  EXPECT_FALSE(rep->reconciled);
  EXPECT_EQ(part(j, 0).state, part_state::slotted);
  auto own = reclaim(r, reclaim_options{std::nullopt, true});
  ASSERT_TRUE(own);
  EXPECT_TRUE(own->reconciled);
  EXPECT_EQ(part(j, 0).state, part_state::queued);
}

// The server's reaper and a worker taking a dead worker's lease entry reclaim
// by owner, without the reconcile step: a reclaimer killed mid-way must leave
// what the next such pass completes (the crash tests found a partition left
// SLOTTED to a FREE slot, its job never finished until a server restart).
TEST_F(Reclaim, AReclaimerKilledMidWayLeavesTheRestToTheNextOwnerPass) {
  for (const char* point : {"slot.reclaim_assigned.cas", "job.requeue.cas"}) {
    SCOPED_TRACE(point);
    job_ref j = submit(std::string("a-") + point);
    const auto slot = *slots.find_free(0);
    dispatch(j, 0, slot, dead_worker);
    ASSERT_TRUE(dies_at(point, [&] { (void)reclaim(r, dead_worker); }));
    ASSERT_TRUE(reclaim(r, dead_worker));
    EXPECT_EQ(word(slot).state, slot_state::free);
    EXPECT_EQ(part(j, 0).state, part_state::queued);
    EXPECT_EQ(part(j, 0).attempts, 1u);
  }
}

TEST_F(Reclaim, ADeadWorkerThatFailedItsPartitionButNotItsJobLeavesTheJobFailed) {
  job_ref j = submit("a");
  dispatch(j, 0, 0, dead_worker);
  ASSERT_TRUE(dies_at("job.fail.part", [&] { (void)jobs.fail(j, 0, "unsatisfied"); }));
  ASSERT_EQ(part(j, 0).state, part_state::failed);
  ASSERT_EQ(state(j), job_state::active);
  ASSERT_TRUE(reclaim(r, dead_worker));
  EXPECT_EQ(state(j), job_state::failed);
  EXPECT_EQ(word(0).state, slot_state::free);
}

TEST_F(Reclaim, AStaleGenerationIsNotReclaimed) {
  job_ref j = submit("a");
  dispatch(j, 0, 0, dead_worker);
  ASSERT_TRUE(reclaim(r));
  EXPECT_EQ(word(0).generation, 1u);
  // A late message about (slot 0, generation 0) changes nothing any more.
  EXPECT_EQ(slots.fill(0, 0, dead_worker, {1, 1, 1, 0, false}).error(), error::stale_generation);
  EXPECT_EQ(slots.reclaim_assigned(0, 0, dead_worker).error(), error::stale_generation);
  EXPECT_EQ(word(0), (slot_word{slot_state::free, no_lease, 1}));
}

}  // namespace
}  // namespace cuzk::shm
