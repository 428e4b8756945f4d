#include "queue/job_queue.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "../../shm/pool_guard.hpp"
#include "queue/local_job_queue.hpp"

namespace cuzk::server {
namespace {

TEST(FailJobsOfKey, OnlyTheKeysActiveJobsFailLeaveTheQueueAndAreReported) {
  test::pool_guard g{"keyfail"};
  shm::region r = shm::region::create(g.small()).value();  // 4 records
  shm::job_table t{r};
  local_job_queue q{t, 2, [](shm::job_ref) {}};
  const auto submit = [&](const std::string& id, const std::string& key) {
    auto s = q.submit({id, "client", key, "{}", shm::priority::normal, 2});
    EXPECT_TRUE(s && s->created) << id;
    return s->job;
  };
  const auto a = submit("a", "bad"), b = submit("b", "good"), done = submit("done", "bad");
  ASSERT_TRUE(t.fail_job(done, "earlier"));
  q.drop(done);
  std::vector<shm::job_ref> changed;
  fail_jobs_of_key(t, q, "bad", "no such file", [&](shm::job_ref j) { changed.push_back(j); });
  EXPECT_EQ(changed, std::vector<shm::job_ref>{a}) << "a finished job of the key is left as it was";
  const auto rec = t.get(a);
  ASSERT_TRUE(rec);
  EXPECT_EQ(shm::job_word_state(**rec), shm::job_state::failed);
  EXPECT_EQ(std::string((*rec)->error, (*rec)->error_len), "the key cannot be loaded: no such file");
  EXPECT_EQ(q.size(), 2u) << "b's two partitions wait; a's left the queue";
  while (auto p = q.take([](const queued_partition&, const shm::job_record&) { return true; })) EXPECT_EQ(p->job, b);
}

}  // namespace
}  // namespace cuzk::server
