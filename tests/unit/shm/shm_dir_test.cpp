#include "shm/shm_dir.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>

#include "pool_guard.hpp"
#include "shm/region.hpp"
#include "shm_dir_scope.hpp"

namespace cuzk::shm {
namespace {

using test::shm_dir_scope;

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

struct stat lstat_of(const std::string& p) {
  struct stat st {};
  EXPECT_EQ(::lstat(p.c_str(), &st), 0) << p;
  return st;
}

region_config small(const std::string& name) {
  return region_config{}.with_name(name).with_slots({1, 64, 0}).with_leases(2).with_jobs(2).with_touch_threads(1);
}

TEST(ShmDir, IsTheEnvironmentsOrDevShmCuzk) {
  {
    shm_dir_scope d("env");
    EXPECT_EQ(shm_dir(), d.path);
    EXPECT_EQ(shm_path("p.lock"), d.path + "/p.lock");
  }
  if (!std::getenv("CUZK_SHM_DIR")) {
    EXPECT_EQ(shm_dir(), "/dev/shm/cuzk");
  }
}

TEST(ShmDir, CreateMakesIt0750ForItsCreatorWhateverTheUmask) {
  for (mode_t mask : {mode_t{0}, mode_t{077}}) {
    shm_dir_scope d("make");
    EXPECT_EQ(check_shm_dir(false).error(), error::not_found);
    const mode_t old = ::umask(mask);
    auto r = region::create(small("p"));
    ::umask(old);
    ASSERT_TRUE(r);
    const struct stat st = lstat_of(d.path);
    EXPECT_TRUE(S_ISDIR(st.st_mode));
    EXPECT_EQ(st.st_mode & 07777, 0750u) << "umask " << mask;
    EXPECT_EQ(st.st_uid, ::geteuid());
    EXPECT_TRUE(region::destroy({"p", {}}, true));
  }
}

TEST(ShmDir, AbsentItIsNoRegionNamingTheDirectory) {
  shm_dir_scope d("absent");
  std::string why;
  auto r = region::open({"p", {}}, &why);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error(), error::not_found);
  EXPECT_TRUE(has(why, "no region 'p' (" + d.path + " does not exist)")) << why;
}

TEST(ShmDir, ADirectoryAnotherUserMadeIsRefusedNamingThatUser) {
  if (::geteuid() != 0) GTEST_SKIP() << "a directory of another user needs root";
  shm_dir_scope d("squat");
  ASSERT_TRUE(d.make(0755, 65534, 65534));
  std::string why;
  auto r = region::create(small("p"), &why);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error(), error::access_denied);
  EXPECT_TRUE(has(why, d.path + " belongs to uid 65534")) << why;
  EXPECT_TRUE(has(why, "another user created it to take the service's names; remove it")) << why;
  EXPECT_EQ(::access(shm_path("p").c_str(), F_OK), -1);
  EXPECT_EQ(check_shm_dir(false, &why).error(), error::access_denied);
}

TEST(ShmDir, ALinkAFileOrADirectoryOpenToEveryoneIsRefused) {
  shm_dir_scope d("shape");
  const std::string target = d.path + "-target";
  ASSERT_EQ(::mkdir(target.c_str(), 0700), 0);
  ASSERT_EQ(::symlink(target.c_str(), d.path.c_str()), 0);
  std::string why;
  auto r = region::create(small("p"), &why);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error(), error::access_denied);
  EXPECT_TRUE(has(why, d.path + " is a symbolic link")) << why;
  EXPECT_EQ(::access((target + "/p").c_str(), F_OK), -1) << "the link was followed";
  ASSERT_EQ(::rmdir(target.c_str()), 0);
  d.remove();

  ASSERT_EQ(::close(::open(d.path.c_str(), O_CREAT | O_WRONLY, 0600)), 0);
  r = region::create(small("p"), &why);
  ASSERT_FALSE(r);
  EXPECT_TRUE(has(why, d.path + " is not a directory")) << why;
  d.remove();

  ASSERT_TRUE(d.make(0777, ::geteuid(), ::getegid()));
  r = region::create(small("p"), &why);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error(), error::access_denied);
  EXPECT_TRUE(has(why, "mode 0777, which lets every user create names in it")) << why;
  EXPECT_EQ(::access(shm_path("p").c_str(), F_OK), -1);
}

}  // namespace
}  // namespace cuzk::shm
