#include "shm/lease.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>

#include "pool_guard.hpp"

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
  EXPECT_EQ(e.word.load() & 0xf, 1u);
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
  std::uint64_t inc = entry(*r, 0).word.load() >> 4;
  { lease gone = std::move(*a); }
  EXPECT_FALSE(is_alive(*r, 0));
  EXPECT_EQ(entry(*r, 0).word.load() & 0xf, 0u);
  auto c = lease::take(*r, role::worker, "c");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->index(), 0u);
  EXPECT_EQ(entry(*r, 0).word.load() >> 4, inc + 1);  // incarnation moves on
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
  e.heartbeat_ns.store(now_ns() - 120'000'000'000ULL);
  EXPECT_TRUE(is_hung(*r, 0, 60'000'000'000ULL));
  l->heartbeat();
  EXPECT_FALSE(is_hung(*r, 0, 60'000'000'000ULL));
  EXPECT_FALSE(is_hung(*r, 1, 0));  // dead is not hung
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
  EXPECT_EQ(entry(*r, 0).word.load() & 0xf, 1u);  // still marked: reclaim clears it
  for (int fd : {ready[0], ready[1], go[0], go[1]}) ::close(fd);
}

TEST(Lease, ProcessStartTimeIsReadFromProc) {
  EXPECT_NE(process_start_time(::getpid()), 0u);
  EXPECT_NE(process_start_time(1), 0u);
  EXPECT_EQ(process_start_time(-5), 0u);
}

}  // namespace
}  // namespace cuzk::shm
