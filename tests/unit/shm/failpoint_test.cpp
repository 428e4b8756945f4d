#include "shm/failpoint.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace cuzk::shm {
namespace {

int run_child(void (*body)()) {
  pid_t pid = ::fork();
  if (pid == 0) {
    body();
    ::_exit(0);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return status;
}

TEST(Failpoint, AnUnarmedFailpointDoesNothing) {
  int st = run_child([] { failpoint("test.point"); });
  EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

TEST(Failpoint, AnArmedFailpointKillsOnItsNthHit) {
  int st = run_child([] {
    arm_failpoint("test.point", 3);
    failpoint("test.point");
    failpoint("other.point");
    failpoint("test.point");
    ::_exit(7);
  });
  EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 7);
  st = run_child([] {
    arm_failpoint("test.point", 2);
    failpoint("test.point");
    failpoint("test.point");
    ::_exit(7);
  });
  EXPECT_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
}

TEST(Failpoint, DisarmingStopsIt) {
  int st = run_child([] {
    arm_failpoint("test.point");
    disarm_failpoints();
    failpoint("test.point");
  });
  EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

TEST(Failpoint, AStallingFailpointBlocksTheThreadWithoutKillingIt) {
  pid_t pid = ::fork();
  if (pid == 0) {
    arm_failpoint("test.point", 1, failpoint_action::stall);
    failpoint("test.point");
    ::_exit(7);
  }
  ::usleep(200000);
  int status = 0;
  EXPECT_EQ(::waitpid(pid, &status, WNOHANG), 0) << "the stalled process exited";
  ::kill(pid, SIGKILL);
  ::waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
}

TEST(Failpoint, TheEnvironmentArmsACountAndAnAction) {
  char dir[] = "/tmp/cuzk-fp-XXXXXX";
  ASSERT_NE(::mkdtemp(dir), nullptr);
  const std::string count = std::string(dir) + "/hits";
  pid_t pid = ::fork();
  if (pid == 0) {  // a fresh image reads the environment: exec ourselves with a filter that runs nothing
    ::setenv("CUZK_FAILPOINT_COUNT", count.c_str(), 1);
    ::setenv("CUZK_FAILPOINT", "none:1:stall", 1);
    ::execl("/proc/self/exe", "/proc/self/exe", "--gtest_filter=Failpoint.CountedHitsChild", nullptr);
    ::_exit(99);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  FILE* f = std::fopen(count.c_str(), "r");
  ASSERT_NE(f, nullptr);
  char buf[256] = {};
  const auto n = std::fread(buf, 1, sizeof buf - 1, f);
  std::fclose(f);
  EXPECT_EQ(std::string(buf, n), "a.point\nb.point\na.point\n");
  std::remove(count.c_str());
  ::rmdir(dir);
}

TEST(Failpoint, CountedHitsChild) {  // run by the test above with CUZK_FAILPOINT_COUNT set; a no-op otherwise
  failpoint("a.point");
  failpoint("b.point");
  failpoint("a.point");
}

}  // namespace
}  // namespace cuzk::shm
