#include "shm/lease.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <time.h>

#include <cstring>

#include "pool_guard.hpp"
#include "shm/job_table.hpp"
#include "shm/slot_table.hpp"

namespace cuzk::shm {
namespace {

using test::pool_guard;

const lease_entry& entry(const region& r, std::uint32_t i) { return r.at<lease_entry>(r.header().lease_offset)[i]; }

TEST(Lease, TakingALeaseFillsItsEntryAndHoldsItsLock) {
  pool_guard g("lease");
  auto r = region::create(g.small());
  ASSERT_TRUE(r);
  EXPECT_FALSE(is_alive(*r, 0));
  auto l = lease::take(*r, role::worker, "worker@3");
  ASSERT_TRUE(l);
  EXPECT_EQ(l->index(), 0u);
  const lease_entry& e = entry(*r, 0);
  EXPECT_TRUE(lease_word::unpack(e.word.load()).active);
  EXPECT_EQ(e.role, static_cast<std::uint32_t>(role::worker));
  EXPECT_EQ(e.pid, ::getpid());
  EXPECT_EQ(e.start_time, process_start_time(::getpid()));
  EXPECT_NE(e.start_time, 0u);
  EXPECT_STREQ(e.name, "worker@3");
  // The lock is seen from this very process (another open file description).
  EXPECT_TRUE(is_alive(*r, 0));
  auto other = region::open(g.where());
  ASSERT_TRUE(other);
  EXPECT_TRUE(is_alive(*other, 0));
}

TEST(Lease, ClosingAnUnrelatedDescriptorOfTheLockFileKeepsTheLock) {
  pool_guard g("ofd");
  auto r = region::create(g.small());
  ASSERT_TRUE(r);
  auto l = lease::take(*r, role::worker, "w");
  ASSERT_TRUE(l);
  {
    auto second = region::open(g.where());  // opens and later closes the lock file
    ASSERT_TRUE(second);
  }
  EXPECT_TRUE(is_alive(*r, l->index()));  // classic POSIX locks would be gone here
}

TEST(Lease, EachLeaseTakesTheNextFreeEntryAndReleasingFreesIt) {
  pool_guard g("next");
  auto r = region::create(g.small());
  ASSERT_TRUE(r);
  auto a = lease::take(*r, role::worker, "a");
  auto b = lease::take(*r, role::worker, "b");
  ASSERT_TRUE(a && b);
  EXPECT_EQ(b->index(), 1u);
  std::uint64_t inc = lease_word::unpack(entry(*r, 0).word.load()).incarnation;
  { lease gone = std::move(*a); }
  EXPECT_FALSE(is_alive(*r, 0));
  EXPECT_FALSE(lease_word::unpack(entry(*r, 0).word.load()).active);
  auto c = lease::take(*r, role::worker, "c");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->index(), 0u);
  EXPECT_EQ(lease_word::unpack(entry(*r, 0).word.load()).incarnation, inc + 1);  // incarnation moves on
}

TEST(Lease, LeasesRunOutWhenEveryEntryIsHeld) {
  pool_guard g("full");
  auto r = region::create(g.small().with_leases(2));
  ASSERT_TRUE(r);
  auto a = lease::take(*r, role::worker, "a");
  auto b = lease::take(*r, role::worker, "b");
  ASSERT_TRUE(a && b);
  auto c = lease::take(*r, role::worker, "c");
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error(), error::leases_exhausted);
}

TEST(Lease, OnlyOneServerAtATimeAndEachStartBumpsTheEpoch) {
  pool_guard g("server");
  auto r = region::create(g.small());
  ASSERT_TRUE(r);
  EXPECT_FALSE(server_alive(*r));
  {
    auto s = lease::take(*r, role::server, "gpu-server");
    ASSERT_TRUE(s);
    EXPECT_EQ(s->epoch(), 1u);
    EXPECT_TRUE(server_alive(*r));
    auto t = lease::take(*r, role::server, "gpu-server-2");
    ASSERT_FALSE(t);
    EXPECT_EQ(t.error(), error::server_running);
    auto w = lease::take(*r, role::worker, "w");  // workers still come in
    ASSERT_TRUE(w);
    EXPECT_EQ(w->epoch(), 1u);
  }
  EXPECT_FALSE(server_alive(*r));
  auto s = lease::take(*r, role::server, "gpu-server");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->epoch(), 2u);
  EXPECT_EQ(r->header().epoch.load(), 2u);
}

TEST(Lease, ALiveLeaseWithAnOldHeartbeatIsHung) {
  pool_guard g("hung");
  auto r = region::create(g.small());
  ASSERT_TRUE(r);
  auto l = lease::take(*r, role::worker, "w");
  ASSERT_TRUE(l);
  EXPECT_FALSE(is_hung(*r, 0, 60'000'000'000ULL));
  auto& e = r->at<lease_entry>(r->header().lease_offset)[0];
  e.heartbeat_ns.store(boot_ns() - 120'000'000'000ULL);
  EXPECT_TRUE(is_hung(*r, 0, 60'000'000'000ULL));
  l->heartbeat();
  EXPECT_FALSE(is_hung(*r, 0, 60'000'000'000ULL));
  EXPECT_FALSE(is_hung(*r, 1, 0));  // dead is not hung
}

std::uint64_t clock_ns(clockid_t id) {
  timespec ts{};
  ::clock_gettime(id, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ULL + static_cast<std::uint64_t>(ts.tv_nsec);
}

TEST(Lease, HeartbeatsUseTheBootClockAndJobTimesTheWallClock) {
  pool_guard g("clock");
  auto r = region::create(g.small());
  ASSERT_TRUE(r);
  const std::uint64_t before = clock_ns(CLOCK_BOOTTIME);
  auto l = lease::take(*r, role::worker, "w");
  ASSERT_TRUE(l);
  const auto& e = entry(*r, l->index());
  EXPECT_GE(e.heartbeat_ns.load(), before);
  l->heartbeat();
  const std::uint64_t after = clock_ns(CLOCK_BOOTTIME);
  EXPECT_GE(e.heartbeat_ns.load(), before);
  EXPECT_LE(e.heartbeat_ns.load(), after) << "the heartbeat is not on CLOCK_BOOTTIME";
  EXPECT_EQ(l->last_heartbeat_ns(), e.heartbeat_ns.load());
  // A wall-clock heartbeat (or one from any clock another process may read
  // differently) would make a fresh lease look decades old or in the future.
  EXPECT_FALSE(is_hung(*r, l->index(), 1'000'000'000ULL));
  const std::uint64_t b = boot_ns(), w = wall_ns();
  EXPECT_LE(b, clock_ns(CLOCK_BOOTTIME));
  EXPECT_GE(b, after);
  const std::uint64_t wall_now = clock_ns(CLOCK_REALTIME);
  EXPECT_LE(w, wall_now);
  EXPECT_GT(w + 1'000'000'000ULL, wall_now);
}

TEST(Lease, SurrenderGivesBackTheLeasesAssignedSlotsAndRequeuesTheirPartitions) {
  pool_guard g("surrender");
  auto r = region::create(g.small());
  ASSERT_TRUE(r);
  auto server = lease::take(*r, role::server, "gpu-server");
  auto w = lease::take(*r, role::worker, "w");
  ASSERT_TRUE(server && w);
  job_table jobs(*r);
  slot_table slots(*r);
  auto j = jobs.submit(job_request{"surrendered", "c", "k", "{}", priority::normal, 1});
  ASSERT_TRUE(j);
  ASSERT_TRUE(jobs.mark_slotted(j->job, 0, 0));
  ASSERT_TRUE(slots.assign(0, 0, w->index(), j->job.index, j->job.generation, 0));
  auto rep = w->surrender();
  ASSERT_TRUE(rep);
  EXPECT_EQ(rep->assigned_freed, 1u);
  EXPECT_EQ(rep->partitions_requeued, 1u);
  EXPECT_EQ(slots.word(0)->state, slot_state::free);
  EXPECT_EQ(slots.word(0)->generation, 1u);
  auto p = jobs.part(j->job, 0);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->state, part_state::queued);
  EXPECT_EQ(p->attempts, 1u);
  EXPECT_TRUE(is_alive(*r, w->index())) << "the lock stays held until the lease is destroyed";
}

TEST(Lease, DeathOfTheHolderIsSeenThroughTheLockNotThePid) {
  pool_guard g("death");
  auto r = region::create(g.small());
  ASSERT_TRUE(r);
  int ready[2], go[2];
  ASSERT_EQ(::pipe(ready), 0);
  ASSERT_EQ(::pipe(go), 0);
  pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    auto rr = region::open(g.where());
    if (!rr) ::_exit(2);
    auto l = lease::take(*rr, role::worker, "child");
    if (!l) ::_exit(3);
    char c = 1;
    if (::write(ready[1], &c, 1) != 1) ::_exit(4);
    if (::read(go[0], &c, 1) != 1) ::_exit(5);
    ::_exit(0);  // no destructor: the entry stays marked active, only the OS drops the lock
  }
  char c;
  ASSERT_EQ(::read(ready[0], &c, 1), 1);
  EXPECT_TRUE(is_alive(*r, 0));
  EXPECT_EQ(entry(*r, 0).pid, pid);
  ASSERT_EQ(::write(go[1], &c, 1), 1);
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  EXPECT_FALSE(is_alive(*r, 0));
  EXPECT_TRUE(lease_word::unpack(entry(*r, 0).word.load()).active);  // still marked: reclaim clears it
  for (int fd : {ready[0], ready[1], go[0], go[1]}) ::close(fd);
}

TEST(Lease, ProcessStartTimeIsReadFromProc) {
  EXPECT_NE(process_start_time(::getpid()), 0u);
  EXPECT_NE(process_start_time(1), 0u);
  EXPECT_EQ(process_start_time(-5), 0u);
}

}  // namespace
}  // namespace cuzk::shm
