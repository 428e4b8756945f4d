#include "shm/job_table.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "pool_guard.hpp"

namespace cuzk::shm {
namespace {

using test::pool_guard;

class JobTable : public ::testing::Test {
 protected:
  pool_guard g{"jobs"};
  region r = region::create(g.small()).value();  // 4 records
  job_table t{r};

  job_ref submit(const std::string& id, std::uint32_t parts = 2) {
    auto s = t.submit({id, "client-a", "key", "{\"circuit\":\"x\"}", priority::normal, parts});
    EXPECT_TRUE(s) << id;
    return s ? s->job : job_ref{};
  }
  const job_record& rec(job_ref j) { return **t.get(j); }
  job_state state(job_ref j) { return job_word_state(rec(j)); }
  part_state pstate(job_ref j, std::uint32_t p) { return t.part(j, p)->state; }
  void finish(job_ref j) {
    for (std::uint32_t p = 0; p < rec(j).n_partitions; ++p) {
      ASSERT_TRUE(t.mark_slotted(j, p, 0));
      std::vector<std::uint8_t> proof(192, static_cast<std::uint8_t>(p));
      ASSERT_TRUE(t.store_result(j, p, 5, proof));
    }
  }
};

TEST_F(JobTable, SubmitPublishesAnActiveRecordWithEveryPartitionQueued) {
  auto s = t.submit({"job-1", "client-a", "0123", "spec", priority::high, 3});
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->created);
  const job_record& j = rec(s->job);
  EXPECT_EQ(state(s->job), job_state::active);
  EXPECT_STREQ(j.job_id, "job-1");
  EXPECT_STREQ(j.client, "client-a");
  EXPECT_STREQ(j.key_id, "0123");
  EXPECT_EQ(std::string(j.spec, j.spec_len), "spec");
  EXPECT_EQ(j.priority, priority::high);
  EXPECT_EQ(j.n_partitions, 3u);
  EXPECT_NE(j.submitted_ns, 0u);
  for (std::uint32_t p = 0; p < 3; ++p) EXPECT_EQ(pstate(s->job, p), part_state::queued);
  EXPECT_EQ(t.part(s->job, 3).error(), error::no_such_job);
  EXPECT_EQ(t.find("job-1", std::nullopt), s->job);
  EXPECT_EQ(t.find("job-2", std::nullopt), std::nullopt);
}

TEST_F(JobTable, ResubmittingAKnownIdReturnsTheSameJob) {
  job_ref a = submit("same");
  auto again = t.submit({"same", "other-client", "k", "", priority::low, 1});
  ASSERT_TRUE(again);
  EXPECT_FALSE(again->created);
  EXPECT_EQ(again->job, a);
  EXPECT_EQ(rec(a).n_partitions, 2u);  // the first submission stands
}

TEST_F(JobTable, SubmissionsAreOrdered) {
  job_ref a = submit("a"), b = submit("b");
  EXPECT_LT(rec(a).seq, rec(b).seq);
}

TEST_F(JobTable, BadRequestsAreRefused) {
  EXPECT_EQ(t.submit({"", "", "", "", priority::normal, 1}).error(), error::bad_config);
  EXPECT_EQ(t.submit({"x", "", "", "", priority::normal, 0}).error(), error::bad_config);
  EXPECT_EQ(t.submit({"x", "", "", "", priority::normal, max_partitions + 1}).error(), error::too_large);
  EXPECT_EQ(t.submit({std::string(64, 'j'), "", "", "", priority::normal, 1}).error(), error::too_large);
  EXPECT_EQ(t.submit({"x", std::string(64, 'c'), "", "", priority::normal, 1}).error(), error::too_large);
  EXPECT_EQ(t.submit({"x", "", std::string(64, 'k'), "", priority::normal, 1}).error(), error::too_large);
  EXPECT_EQ(t.submit({"x", "", "", std::string(spec_bytes + 1, 's'), priority::normal, 1}).error(), error::too_large);
}

TEST_F(JobTable, PartitionsMoveQueuedSlottedDoneAndTheJobFinishesWithTheLast) {
  job_ref j = submit("p");
  ASSERT_TRUE(t.mark_slotted(j, 0, 1));
  EXPECT_EQ(pstate(j, 0), part_state::slotted);
  EXPECT_EQ(t.part(j, 0)->slot, 1u);
  std::vector<std::uint8_t> proof{1, 2, 3};
  ASSERT_TRUE(t.store_result(j, 0, 9, proof));
  EXPECT_EQ(pstate(j, 0), part_state::done);
  EXPECT_EQ(rec(j).parts[0].result_len, 3u);
  EXPECT_EQ(rec(j).parts[0].proof_generation, 9u);
  EXPECT_EQ(state(j), job_state::active);
  ASSERT_TRUE(t.mark_slotted(j, 1, 2));
  ASSERT_TRUE(t.store_result(j, 1, 4, proof));
  EXPECT_EQ(state(j), job_state::done);
  EXPECT_NE(rec(j).finished_ns, 0u);
}

TEST_F(JobTable, AStoredProofKeepsItsTimingsAndTheSameProofAgainChangesNothing) {
  job_ref j = submit("timed");
  EXPECT_EQ(rec(j).parts[0].timings.gpu, -1) << "a new record: no GPU";
  EXPECT_EQ(rec(j).parts[0].timings.phases, groth16::phase_timings{});
  ASSERT_TRUE(t.mark_slotted(j, 0, 1));
  std::vector<std::uint8_t> proof{1, 2, 3};
  const partition_timings tm{{{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 55}}, 2, 0};
  ASSERT_TRUE(t.store_result(j, 0, 9, proof, tm));
  const auto& got = rec(j).parts[0].timings;
  EXPECT_EQ(got.phases[groth16::timing::total], 55u);
  EXPECT_EQ(got.phases[groth16::timing::msm_b_g2], 7u);
  EXPECT_EQ(got.phases[groth16::timing::verify], 10u);
  EXPECT_EQ(got.gpu, 2);
  partition_timings other = tm;
  other.phases[groth16::timing::total] = 99;
  ASSERT_TRUE(t.store_result(j, 0, 9, proof, other));  // dedup: the stored proof's timings stay
  EXPECT_EQ(rec(j).parts[0].timings.phases[groth16::timing::total], 55u);
  ASSERT_TRUE(t.mark_slotted(j, 1, 2));
  ASSERT_TRUE(t.store_result(j, 1, 4, proof));  // no timings given: the CPU's, none measured
  EXPECT_EQ(rec(j).parts[1].timings.gpu, -1);
}

TEST_F(JobTable, IllegalPartitionTransitionsAreRefused) {
  job_ref j = submit("ill");
  std::vector<std::uint8_t> proof{1};
  EXPECT_EQ(t.requeue(j, 0).error(), error::wrong_state);                 // QUEUED → QUEUED
  EXPECT_EQ(t.store_result(j, 0, 1, proof).error(), error::wrong_state);  // QUEUED → DONE
  ASSERT_TRUE(t.mark_slotted(j, 0, 0));
  EXPECT_EQ(t.mark_slotted(j, 0, 1).error(), error::wrong_state);  // SLOTTED → SLOTTED
  ASSERT_TRUE(t.store_result(j, 0, 1, proof));
  EXPECT_EQ(t.mark_slotted(j, 0, 1).error(), error::wrong_state);  // DONE → SLOTTED
  EXPECT_EQ(t.requeue(j, 0).error(), error::wrong_state);          // DONE → QUEUED
  EXPECT_EQ(t.fail(j, 0, "late").error(), error::wrong_state);     // DONE → FAILED
  EXPECT_EQ(t.mark_slotted(j, 5, 0).error(), error::no_such_job);
  EXPECT_EQ(t.mark_slotted(j, 1, 1000).error(), error::no_such_slot);
  EXPECT_EQ(t.complete(j).error(), error::wrong_state);  // partition 1 still queued
}

TEST_F(JobTable, ResultsAreDeduplicatedByGeneration) {
  job_ref j = submit("dedup", 1);
  ASSERT_TRUE(t.mark_slotted(j, 0, 0));
  std::vector<std::uint8_t> first{1, 1}, second{2, 2, 2};
  ASSERT_TRUE(t.store_result(j, 0, 7, first));
  EXPECT_TRUE(t.store_result(j, 0, 7, second));  // the same proof again: no-op
  EXPECT_EQ(rec(j).parts[0].result_len, 2u);
  EXPECT_EQ(rec(j).parts[0].result[0], 1u);
  EXPECT_EQ(t.store_result(j, 0, 8, second).error(), error::wrong_state);
  std::vector<std::uint8_t> huge(result_bytes + 1);
  job_ref k = submit("huge", 1);
  ASSERT_TRUE(t.mark_slotted(k, 0, 0));
  EXPECT_EQ(t.store_result(k, 0, 1, huge).error(), error::too_large);
}

TEST_F(JobTable, RequeueCountsAttempts) {
  job_ref j = submit("rq");
  ASSERT_TRUE(t.mark_slotted(j, 0, 2));
  ASSERT_TRUE(t.requeue(j, 0));
  EXPECT_EQ(pstate(j, 0), part_state::queued);
  EXPECT_EQ(t.part(j, 0)->attempts, 1u);
  ASSERT_TRUE(t.mark_slotted(j, 0, 1));
  EXPECT_EQ(t.part(j, 0)->attempts, 1u);
  t.count_synthesis(j, 0);
  t.count_synthesis(j, 0);
  EXPECT_EQ(rec(j).parts[0].syntheses.load(), 2u);
}

/* An aborted synthesis (a critical job took its worker): back to QUEUED with its attempts, and its start no
   longer counts towards the poison limit. */
TEST_F(JobTable, UnslotRequeuesWithoutAnAttemptAndUncountsTheSynthesis) {
  job_ref j = submit("ab");
  ASSERT_TRUE(t.mark_slotted(j, 0, 2));
  t.count_synthesis(j, 0);
  ASSERT_TRUE(t.unslot(j, 0));
  EXPECT_EQ(pstate(j, 0), part_state::queued);
  EXPECT_EQ(t.part(j, 0)->attempts, 0u);
  EXPECT_EQ(rec(j).parts[0].syntheses.load(), 0u);
  EXPECT_EQ(t.unslot(j, 0).error(), error::wrong_state);  // only from SLOTTED
  EXPECT_EQ(rec(j).parts[0].syntheses.load(), 0u);        // and never below zero
}

TEST_F(JobTable, FailJobFailsTheWholeJobThroughItsFirstUnfinishedPartition) {
  job_ref j = submit("whole");
  ASSERT_TRUE(t.mark_slotted(j, 0, 0));
  ASSERT_TRUE(t.store_result(j, 0, 1, std::vector<std::uint8_t>{1}, {}));
  ASSERT_TRUE(t.fail_job(j, "the key cannot be loaded"));
  EXPECT_EQ(pstate(j, 0), part_state::done);
  EXPECT_EQ(pstate(j, 1), part_state::failed);
  EXPECT_EQ(state(j), job_state::failed);
  EXPECT_STREQ(rec(j).error, "the key cannot be loaded");
  EXPECT_EQ(t.fail_job(j, "again").error(), error::wrong_state);
}

TEST_F(JobTable, FailingAPartitionFailsTheJobWithItsError) {
  job_ref j = submit("bad");
  ASSERT_TRUE(t.mark_slotted(j, 0, 0));
  ASSERT_TRUE(t.fail(j, 0, "constraint 17 unsatisfied"));
  EXPECT_EQ(pstate(j, 0), part_state::failed);
  EXPECT_EQ(state(j), job_state::failed);
  EXPECT_STREQ(rec(j).error, "constraint 17 unsatisfied");
  EXPECT_EQ(t.mark_slotted(j, 1, 0).error(), error::wrong_state);  // the job is over
  EXPECT_EQ(t.fail(j, 1, "again").error(), error::wrong_state);
  job_ref k = submit("long");
  ASSERT_TRUE(t.fail(k, 1, std::string(5000, 'e')));
  EXPECT_EQ(rec(k).error_len, error_bytes - 1);  // truncated to fit
}

TEST_F(JobTable, AFullTableEvictsTheOldestFinishedJobAndNeverAnActiveOne) {
  job_ref a = submit("a"), b = submit("b"), c = submit("c"), d = submit("d");
  auto full = t.submit({"e", "", "", "", priority::normal, 1});
  ASSERT_FALSE(full);
  EXPECT_EQ(full.error(), error::job_table_full);
  finish(c);
  finish(b);
  EXPECT_EQ(t.submit({"e", "", "", "", priority::normal, 1}).error(), error::job_table_full);  // never fetched
  t.mark_fetched(c);
  t.mark_fetched(b);
  auto e = t.submit({"e", "", "", "", priority::normal, 1});
  ASSERT_TRUE(e);
  EXPECT_EQ(e->job.index, b.index);  // b was submitted before c
  EXPECT_EQ(e->job.generation, b.generation + 1);
  EXPECT_EQ(t.get(b).error(), error::stale_generation);
  EXPECT_EQ(t.find("b", std::nullopt), std::nullopt);
  EXPECT_EQ(t.find("c", std::nullopt), c);
  EXPECT_TRUE(t.get(a) && t.get(d));
  EXPECT_EQ(t.mark_slotted(b, 0, 0).error(), error::stale_generation);
}

TEST_F(JobTable, AnUnfetchedFinishedJobIsEvictedOnlyAfterItsRetention) {
  job_ref a = submit("a");
  submit("b");
  submit("c");
  submit("d");
  finish(a);
  job_request late{"e", "", "", "", priority::normal, 1};
  EXPECT_EQ(t.submit(late).error(), error::job_table_full);
  late.retention_ns = 0;  // a retention that has passed
  auto e = t.submit(late);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->job.index, a.index);
}

TEST_F(JobTable, JobIdsArePerOwnerAndAResubmissionMustCarryTheSameDigest) {
  job_request r{"shared", "c", "key", "spec-1", priority::normal, 1};
  r.owner_uid = 1000;
  r.digest[0] = 1;
  auto mine = t.submit(r);
  ASSERT_TRUE(mine && mine->created);
  job_request theirs = r;
  theirs.owner_uid = 1001;
  theirs.digest[0] = 2;
  auto other = t.submit(theirs);
  ASSERT_TRUE(other && other->created);  // another uid's "shared" is another job
  EXPECT_NE(other->job.index, mine->job.index);
  EXPECT_EQ(t.find("shared", 1000u), mine->job);
  EXPECT_EQ(t.find("shared", 1001u), other->job);
  EXPECT_EQ(t.find("shared", 1002u), std::nullopt);
  EXPECT_EQ(rec(mine->job).owner_uid, 1000u);
  auto same = t.submit(r);
  ASSERT_TRUE(same);
  EXPECT_FALSE(same->created);
  EXPECT_FALSE(same->conflict);
  r.digest[0] = 3;
  auto changed = t.submit(r);
  ASSERT_TRUE(changed);
  EXPECT_FALSE(changed->created);
  EXPECT_TRUE(changed->conflict);
  EXPECT_EQ(rec(mine->job).digest[0], 1);  // nothing was overwritten
}

TEST_F(JobTable, ForEachVisitsLiveRecords) {
  submit("x");
  submit("y");
  std::vector<std::string> ids;
  t.for_each([&](job_ref, const job_record& rec) { ids.emplace_back(rec.job_id); });
  EXPECT_EQ(ids, (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(t.get(job_ref{2, 0}).error(), error::no_such_job);
  EXPECT_EQ(t.get(job_ref{99, 0}).error(), error::no_such_job);
}

TEST_F(JobTable, AReservedRecordIsReleasedOnlyFromReserved) {
  job_ref a = submit("a");
  EXPECT_EQ(t.release_reserved(a.index).error(), error::wrong_state);
  // What a server that died between reserving and publishing leaves behind:
  auto& w = r.at<job_record>(r.header().job_offset)[3].word;
  w.store(static_cast<std::uint64_t>(job_state::reserved) | (5ULL << 4));
  ASSERT_TRUE(t.release_reserved(3));
  EXPECT_EQ(w.load(), 5ULL << 4);  // FREE, generation kept (the next reserve bumps it)
}

}  // namespace
}  // namespace cuzk::shm
