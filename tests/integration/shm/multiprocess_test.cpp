// Several real processes on one pool: racing creators, stale messages from a
// killed worker's generation, reclamation seen from another process.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <vector>

#include "pool_guard.hpp"
#include "shm/job_table.hpp"
#include "shm/lease.hpp"
#include "shm/reclaim.hpp"
#include "shm/slot_table.hpp"

namespace cuzk::shm {
namespace {

using test::pool_guard;

int wait_for(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

TEST(MultiProcess, TwoCreatorsRacingExactlyOneWins) {
  for (int round = 0; round < 20; ++round) {
    pool_guard g("race");
    int gate[2];
    ASSERT_EQ(::pipe(gate), 0);
    std::vector<pid_t> kids;
    for (int k = 0; k < 4; ++k) {
      pid_t pid = ::fork();
      ASSERT_GE(pid, 0);
      if (pid == 0) {
        ::close(gate[1]);
        char c;
        (void)::read(gate[0], &c, 1);  // returns 0 when the parent closes the gate: all start together
        auto r = region::create(g.small());
        ::_exit(r ? 0 : r.error() == error::already_exists ? 10 : 11);
      }
      kids.push_back(pid);
    }
    ::close(gate[0]);
    ::close(gate[1]);
    int winners = 0, losers = 0;
    for (pid_t pid : kids) {
      int st = wait_for(pid);
      ASSERT_TRUE(WIFEXITED(st)) << st;
      winners += WEXITSTATUS(st) == 0;
      losers += WEXITSTATUS(st) == 10;
    }
    EXPECT_EQ(winners, 1) << "round " << round;
    EXPECT_EQ(losers, 3) << "round " << round;
    EXPECT_TRUE(region::open(g.where()));
  }
}

TEST(MultiProcess, AKilledWorkersSlotIsReclaimedAndItsLateMessageIsStale) {
  pool_guard g("stale");
  region r = region::create(g.small()).value();
  slot_table slots(r);
  job_table jobs(r);
  job_ref j = jobs.submit({"job", "c", "k", "", priority::normal, 1})->job;

  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  pid_t worker = ::fork();
  ASSERT_GE(worker, 0);
  if (worker == 0) {
    auto rr = region::open(g.where());
    if (!rr) ::_exit(2);
    auto l = lease::take(*rr, role::worker, "worker@1");
    if (!l) ::_exit(3);
    std::uint32_t idx = l->index();
    if (::write(ready[1], &idx, sizeof idx) != sizeof idx) ::_exit(4);
    for (;;) ::pause();  // synthesizing, until SIGKILL
  }
  std::uint32_t idx = 0;
  ASSERT_EQ(::read(ready[0], &idx, sizeof idx), static_cast<ssize_t>(sizeof idx));
  ASSERT_TRUE(jobs.mark_slotted(j, 0, 0));
  ASSERT_TRUE(slots.assign(0, 0, idx, j.index, j.generation, 0));
  EXPECT_TRUE(is_alive(r, idx));
  EXPECT_EQ(reclaim(r)->assigned_freed, 0u);  // alive: left alone
  ::kill(worker, SIGKILL);
  int st = wait_for(worker);
  ASSERT_TRUE(WIFSIGNALED(st));
  EXPECT_FALSE(is_alive(r, idx));
  auto rep = reclaim(r);
  ASSERT_TRUE(rep);
  EXPECT_EQ(rep->assigned_freed, 1u);
  EXPECT_EQ(rep->partitions_requeued, 1u);
  EXPECT_EQ(rep->leases_cleared, 1u);
  EXPECT_EQ(*slots.word(0), (slot_word{slot_state::free, no_lease, 1}));

  // The slot goes to a new worker at generation 1; a late "filled" about
  // generation 0 (what the dead worker would have sent) is refused, from
  // another process as well.
  ASSERT_TRUE(jobs.mark_slotted(j, 0, 0));
  ASSERT_TRUE(slots.assign(0, 1, idx, j.index, j.generation, 0));
  pid_t late = ::fork();
  ASSERT_GE(late, 0);
  if (late == 0) {
    auto rr = region::open(g.where());
    if (!rr) ::_exit(2);
    slot_table t(*rr);
    auto f = t.fill(0, 0, idx, {1, 1, 1, 0, false});
    ::_exit(!f && f.error() == error::stale_generation ? 0 : 1);
  }
  st = wait_for(late);
  EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0) << st;
  EXPECT_EQ(*slots.word(0), (slot_word{slot_state::assigned, idx, 1}));
  for (int fd : ready) ::close(fd);
}

TEST(MultiProcess, ADeadServersProvingSlotIsFilledAgainForTheNextServer) {
  pool_guard g("server-death");
  region r = region::create(g.small()).value();
  slot_table slots(r);
  job_table jobs(r);
  job_ref j = jobs.submit({"job", "c", "k", "", priority::normal, 1})->job;
  ASSERT_TRUE(jobs.mark_slotted(j, 0, 1));
  ASSERT_TRUE(slots.assign(1, 0, 7, j.index, j.generation, 0));
  ASSERT_TRUE(slots.fill(1, 0, 7, {4, 4, 4, 0, true}));
  pid_t server = ::fork();
  ASSERT_GE(server, 0);
  if (server == 0) {
    auto rr = region::open(g.where());
    if (!rr) ::_exit(2);
    auto l = lease::take(*rr, role::server, "gpu-server");
    if (!l) ::_exit(3);
    slot_table t(*rr);
    if (!t.start_proving(1, 0, l->index())) ::_exit(4);
    ::kill(::getpid(), SIGKILL);  // dies mid-proof
  }
  int st = wait_for(server);
  ASSERT_TRUE(WIFSIGNALED(st)) << st;
  EXPECT_EQ(slots.word(1)->state, slot_state::proving);
  auto next = lease::take(r, role::server, "gpu-server-2");  // a restart reclaims
  ASSERT_TRUE(next);
  EXPECT_EQ(next->epoch(), 2u);
  EXPECT_EQ(*slots.word(1), (slot_word{slot_state::filled, no_lease, 0}));
  EXPECT_TRUE(slots.verify_checksum(1));
  EXPECT_TRUE(slots.start_proving(1, 0, next->index()));
}

}  // namespace
}  // namespace cuzk::shm
