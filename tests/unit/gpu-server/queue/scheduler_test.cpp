#include "queue/scheduler.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "seed.hpp"

namespace cuzk::server {
namespace {

queued_partition q(shm::priority p, std::uint64_t seq, std::uint32_t part = 0) {
  return {p, seq, shm::job_ref{seq, 1}, part};
}

TEST(Scheduler, HighBeforeNormalBeforeLowAndFifoWithinAClass) {
  std::vector<queued_partition> in;
  for (std::uint64_t s = 0; s < 30; ++s) in.push_back(q(static_cast<shm::priority>(s % 3), s));
  auto rng = test::rng(1);
  std::shuffle(in.begin(), in.end(), rng);
  scheduler sch;
  for (const auto& x : in) sch.push(x);
  std::vector<queued_partition> out;
  while (auto x = sch.pop_first([](const queued_partition&) { return true; })) out.push_back(*x);
  ASSERT_EQ(out.size(), 30u);
  for (std::size_t i = 1; i < out.size(); ++i) {
    ASSERT_LE(static_cast<int>(out[i - 1].prio), static_cast<int>(out[i].prio));
    if (out[i - 1].prio == out[i].prio) {
      EXPECT_LT(out[i - 1].seq, out[i].seq);
    }
  }
}

TEST(Scheduler, PopFirstSkipsWhatDoesNotFitAndKeepsIt) {
  scheduler sch;
  sch.push(q(shm::priority::high, 1));
  sch.push(q(shm::priority::low, 2));
  auto x = sch.pop_first([](const queued_partition& e) { return e.seq == 2; });
  ASSERT_TRUE(x);
  EXPECT_EQ(x->seq, 2u);
  EXPECT_EQ(sch.size(), 1u);
  EXPECT_TRUE(sch.contains(shm::job_ref{1, 1}, 0));
}

TEST(Scheduler, DropRemovesEveryPartitionOfAJob) {
  scheduler sch;
  for (std::uint32_t p = 0; p < 4; ++p) sch.push(q(shm::priority::normal, 7, p));
  sch.push(q(shm::priority::normal, 8));
  sch.drop(shm::job_ref{7, 1});
  EXPECT_EQ(sch.size(), 1u);
  EXPECT_FALSE(sch.contains(shm::job_ref{7, 1}, 2));
}

}  // namespace
}  // namespace cuzk::server
