#include "shm/failpoint.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

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

}  // namespace
}  // namespace cuzk::shm
