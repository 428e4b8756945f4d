#include "queue/local_job_queue.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../../shm/pool_guard.hpp"

namespace cuzk::server {
namespace {

class LocalJobQueue : public ::testing::Test {
 protected:
  test::pool_guard g{"queue"};
  shm::region r = shm::region::create(g.small()).value();  // 4 records
  shm::job_table t{r};
  std::vector<shm::job_ref> failed;
  local_job_queue q{t, 2, [this](shm::job_ref j) { failed.push_back(j); }};

  shm::job_ref submit(const std::string& id, shm::priority p, std::uint32_t parts) {
    auto s = q.submit({id, "client", "key", "{}", p, parts});
    EXPECT_TRUE(s && s->created) << id;
    return s->job;
  }
  static auto any() {
    return [](const queued_partition&, const shm::job_record&) { return true; };
  }
  /* The server's steps: the first waiting partition taken and claimed for slot 0. */
  queued_partition handed_out() {
    auto p = q.take(any());
    EXPECT_TRUE(p && q.claim(*p, 0));
    q.sync();
    return *p;
  }
};

TEST_F(LocalJobQueue, ANewJobsPartitionsWaitInPriorityThenSubmissionOrder) {
  const auto low = submit("low", shm::priority::low, 1);
  const auto a = submit("a", shm::priority::normal, 2);
  const auto high = submit("high", shm::priority::high, 1);
  EXPECT_EQ(q.size(), 4u);
  EXPECT_EQ(q.count(shm::priority::normal), 2u);
  std::vector<std::pair<shm::job_ref, std::uint32_t>> order;
  while (auto p = q.take(any())) order.emplace_back(p->job, p->partition);
  const std::vector<std::pair<shm::job_ref, std::uint32_t>> want{{high, 0}, {a, 0}, {a, 1}, {low, 0}};
  EXPECT_EQ(order, want);
}

TEST_F(LocalJobQueue, AResubmittedJobIsNotQueuedTwice) {
  submit("same", shm::priority::normal, 2);
  auto again = q.submit({"same", "client", "key", "{}", shm::priority::normal, 2});
  ASSERT_TRUE(again);
  EXPECT_FALSE(again->created);
  EXPECT_EQ(q.size(), 2u);
}

TEST_F(LocalJobQueue, TakeSkipsWhatDoesNotFitAndDropsJobsThatEnded) {
  const auto a = submit("a", shm::priority::high, 1);
  const auto b = submit("b", shm::priority::normal, 1);
  ASSERT_TRUE(t.fail(a, 0, "gone"));
  auto p = q.take([&](const queued_partition& x, const shm::job_record&) { return x.job == b; });
  ASSERT_TRUE(p);
  EXPECT_EQ(p->job, b);
  EXPECT_EQ(q.size(), 0u) << "the failed job's partition left the queue";
}

TEST_F(LocalJobQueue, AClaimedPartitionGivenBackWaitsAgainAndCountsAnAttempt) {
  const auto a = submit("a", shm::priority::normal, 1);
  auto p = q.take(any());
  ASSERT_TRUE(p);
  ASSERT_TRUE(q.claim(*p, 1));
  EXPECT_EQ(t.part(a, 0)->state, shm::part_state::slotted);
  EXPECT_EQ(t.part(a, 0)->slot, 1u);
  q.give_back(*p);
  EXPECT_EQ(t.part(a, 0)->state, shm::part_state::queued);
  EXPECT_EQ(t.part(a, 0)->attempts, 1u);
  EXPECT_EQ(q.size(), 1u);
}

TEST_F(LocalJobQueue, RefreshRebuildsFromTheTableAndFailsAPartitionThatEndedItsWorkersTooOften) {
  const auto a = submit("a", shm::priority::normal, 1);
  const auto poison = submit("poison", shm::priority::normal, 1);
  // Another process changed the table: a's partition was slotted, poison's synthesized twice and requeued.
  ASSERT_TRUE(t.mark_slotted(a, 0, 1));
  for (int i = 0; i < 2; ++i) t.count_synthesis(poison, 0);
  q.refresh(false);
  EXPECT_EQ(q.size(), 0u);
  ASSERT_EQ(failed.size(), 1u);
  EXPECT_EQ(failed[0], poison);
  EXPECT_EQ(shm::job_word_state(**t.get(poison)), shm::job_state::failed);
  const auto& rec = **t.get(poison);
  EXPECT_NE(std::string(rec.error, rec.error_len).find("ended its worker 2 times"), std::string::npos);
}

TEST_F(LocalJobQueue, SyncSeesAPartitionAnotherProcessRequeued) {
  const auto a = submit("a", shm::priority::normal, 1);
  const auto p = handed_out();
  EXPECT_EQ(q.size(), 0u);
  EXPECT_EQ(q.out(), 1u);
  q.sync();
  EXPECT_EQ(q.out(), 1u) << "still SLOTTED: still out";
  ASSERT_TRUE(t.requeue(a, 0));  // a reclamation in a worker's process: the dead worker's partition requeued
  q.sync();
  ASSERT_EQ(q.size(), 1u);
  EXPECT_EQ(q.out(), 0u);
  auto again = q.take(any());
  ASSERT_TRUE(again);
  EXPECT_EQ(again->job, p.job);
  EXPECT_TRUE(failed.empty());
}

TEST_F(LocalJobQueue, SyncSeesEveryRequeueEvenWhenOneSlotHeldSeveralJobsBetweenTwoTicks) {
  // Between two ticks one slot can be assigned, reclaimed and reassigned: the crash tests' worker points.
  const auto a = submit("a", shm::priority::normal, 1);
  const auto b = submit("b", shm::priority::normal, 1);
  auto pa = q.take(any());
  ASSERT_TRUE(pa && pa->job == a && q.claim(*pa, 0));
  ASSERT_TRUE(t.requeue(a, 0));  // its worker died; the worker taking the lease next reclaimed it
  auto pb = q.take(any());
  ASSERT_TRUE(pb && pb->job == b && q.claim(*pb, 0));
  q.sync();
  ASSERT_EQ(q.size(), 1u);
  EXPECT_EQ(q.take(any())->job, a);
}

TEST_F(LocalJobQueue, SyncDropsTheWaitingPartitionsOfAJobAWorkerFailed) {
  const auto a = submit("a", shm::priority::normal, 3);
  handed_out();
  EXPECT_EQ(q.size(), 2u);
  ASSERT_TRUE(t.fail(a, 0, "unsatisfied constraint"));  // the worker: the job table first, then the slot
  q.sync();
  EXPECT_EQ(q.size(), 0u);
  EXPECT_EQ(q.out(), 0u);
}

TEST_F(LocalJobQueue, SyncFailsARequeuedPartitionThatEndedItsWorkersTooOften) {
  const auto a = submit("a", shm::priority::normal, 1);
  handed_out();
  for (int i = 0; i < 2; ++i) t.count_synthesis(a, 0);
  ASSERT_TRUE(t.requeue(a, 0));
  q.sync();
  EXPECT_EQ(q.size(), 0u);
  ASSERT_EQ(failed.size(), 1u);
  EXPECT_EQ(failed[0], a);
  EXPECT_EQ(shm::job_word_state(**t.get(a)), shm::job_state::failed);
}

TEST_F(LocalJobQueue, SyncLooksOnlyAtThePartitionsHandedOut) {
  submit("a", shm::priority::normal, 1);
  const auto b = submit("b", shm::priority::normal, 1);
  q.sync();
  ASSERT_TRUE(t.fail(b, 0, "failed while queued"));  // no process does this: sync does not scan the table
  q.sync();
  EXPECT_EQ(q.size(), 2u);
  q.refresh(false);
  EXPECT_EQ(q.size(), 1u) << "the rebuild at start scans the table";
}

TEST_F(LocalJobQueue, RefreshFindsThePartitionsOutSoARestartedServerSeesThemComeBack) {
  const auto a = submit("a", shm::priority::normal, 2);
  ASSERT_TRUE(t.mark_slotted(a, 0, 1));  // the previous server handed it out
  q.refresh(false);
  EXPECT_EQ(q.size(), 1u);
  EXPECT_EQ(q.out(), 1u);
  ASSERT_TRUE(t.requeue(a, 0));
  q.sync();
  EXPECT_EQ(q.size(), 2u);
}

TEST_F(LocalJobQueue, RefusePoisonWaitsForTheBound) {
  const auto a = submit("a", shm::priority::normal, 1);
  t.count_synthesis(a, 0);
  EXPECT_FALSE(q.refuse_poison(a, 0, 2, "killed"));
  t.count_synthesis(a, 0);
  EXPECT_TRUE(q.refuse_poison(a, 0, 2, "killed"));
  EXPECT_EQ(shm::job_word_state(**t.get(a)), shm::job_state::failed);
}

}  // namespace
}  // namespace cuzk::server
