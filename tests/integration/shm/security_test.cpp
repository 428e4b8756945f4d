// Hostile local users against the pool and its SRS regions (DESIGN §9): a
// second uid, files chmod'ed or chowned away from the service, symbolic links
// planted in the service's directory, key files that are FIFOs, directories or links.
#include <fcntl.h>
#include <grp.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <random>
#include <thread>

#include "pool_guard.hpp"
#include "run.hpp"
#include "seed.hpp"
#include "shm_dir_scope.hpp"
#include "shm/lease.hpp"
#include "shm/region.hpp"
#include "shm/shm_dir.hpp"
#include "shm/srs_region.hpp"

namespace cuzk::shm {
namespace {

using test::pool_guard;
using test::run;

const std::string shm_bin = CUZK_SHM_BIN, probe = CUZK_SHM_PROBE;

std::vector<std::uint8_t> random_bytes(std::size_t n, std::uint64_t salt) {
  auto rng = test::rng(salt);
  std::vector<std::uint8_t> v(n);
  for (auto& b : v) b = static_cast<std::uint8_t>(rng());
  return v;
}

std::string dev_shm(const std::string& name) { return shm_path(name); }
std::string srs_path(const std::string& pool, const std::string& key) { return dev_shm(pool + ".srs." + key); }
bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

struct unlink_at_exit {
  std::string path;
  ~unlink_at_exit() { ::unlink(path.c_str()); }
};

// --- a second uid -----------------------------------------------------------

TEST(ShmSecondUid, CannotOpenThePoolItsLockFileOrItsKeysEvenWhenItsGroupIsTheCreators) {
  if (auto no = test::second_uid_unavailable(); !no.empty()) GTEST_SKIP() << no;
  // An operator whose primary group is the clients' group (nogroup here): the
  // old 0660 objects were readable by every client in it. The directory lets
  // that group in, so that the files' own modes are what refuses.
  test::shm_dir_scope d("sec-uid");
  ASSERT_TRUE(d.make(0750, 0, ::getgrnam("nogroup")->gr_gid));
  pool_guard g("sec-uid");
  test::temp_dir dir;
  auto key = dir.write("key.zkey", random_bytes(50'000, 1));
  auto c = run(test::in_group("nogroup", shm_bin + " create --name " + g.name + " --slots 2x1000 --threads 1"));
  ASSERT_EQ(c.rc, 0) << c.err;
  auto l = run(test::in_group("nogroup", shm_bin + " load-srs --name " + g.name + " --zkey " + key.string()));
  ASSERT_EQ(l.rc, 0) << l.err;
  const std::string id = l.out.substr(0, 32);

  auto s = run(test::as_nobody(shm_bin + " status --name " + g.name));
  EXPECT_NE(s.rc, 0) << "nobody read the pool: " << s.out;
  EXPECT_TRUE(has(s.err, "pool region " + dev_shm(g.name) + " is owned by uid 0 gid ")) << s.err;
  EXPECT_TRUE(has(s.err, "mode 0600")) << s.err;
  EXPECT_EQ(std::count(s.err.begin(), s.err.end(), '\n'), 1) << s.err;

  auto p = run(test::as_nobody(probe + " pool " + g.name));
  EXPECT_EQ(p.rc, 3) << p.out << p.err;
  auto lk = run(test::as_nobody(probe + " lock " + g.name));
  EXPECT_EQ(lk.rc, 3) << lk.out << lk.err;
  EXPECT_TRUE(has(lk.err, "lock file")) << lk.err;
  auto k = run(test::as_nobody(probe + " srs " + g.name + " " + id));
  EXPECT_EQ(k.rc, 3) << k.out << k.err;
  EXPECT_TRUE(has(k.err, "SRS region " + srs_path(g.name, id) + " is owned by uid 0")) << k.err;
  EXPECT_TRUE(has(k.err, "mode 0600")) << k.err;
}

TEST(ShmSecondUid, AMemberOfThePoolsGroupMayOpenItAndItsKeysAndNoOneElse) {
  if (auto no = test::second_uid_unavailable(); !no.empty()) GTEST_SKIP() << no;
  test::shm_dir_scope d("sec-group");
  ASSERT_TRUE(d.make(0770, 0, ::getgrnam("nogroup")->gr_gid));  // as tmpfiles makes it for a service group
  pool_guard g("sec-group");
  test::temp_dir dir;
  auto key = dir.write("key.zkey", random_bytes(40'000, 2));
  auto c = run(shm_bin + " create --name " + g.name + " --slots 2x1000 --threads 1 --group nogroup");
  ASSERT_EQ(c.rc, 0) << c.err;
  EXPECT_TRUE(has(c.out, "mode 0660, group nogroup")) << c.out;
  auto l = run(shm_bin + " load-srs --name " + g.name + " --zkey " + key.string());
  ASSERT_EQ(l.rc, 0) << l.err;
  const std::string id = l.out.substr(0, 32);
  // nobody in nogroup: the service group.
  auto s = run(test::as_nobody(shm_bin + " status --name " + g.name + " --json"));
  EXPECT_EQ(s.rc, 0) << s.err;
  EXPECT_EQ(run(test::as_nobody(probe + " srs " + g.name + " " + id)).rc, 0);
  // nobody in no group of the pool's: refused at the service's directory already.
  auto out = run("setpriv --reuid=nobody --regid=daemon --clear-groups " + probe + " srs " + g.name + " " + id);
  EXPECT_EQ(out.rc, 3) << out.out << out.err;
  auto pool = run("setpriv --reuid=nobody --regid=daemon --clear-groups " + probe + " pool " + g.name);
  EXPECT_EQ(pool.rc, 3) << pool.out << pool.err;
  EXPECT_TRUE(has(pool.err, "may not use " + d.path + " (owned by uid 0 (root) gid")) << pool.err;
  EXPECT_TRUE(has(pool.err, "mode 0770")) << pool.err;
}

// --- files chmod'ed or chowned away from the service ------------------------

TEST(ShmOwnership, APoolOrLockFileOpenToOthersIsRefusedNamingOwnerAndMode) {
  pool_guard g("sec-mode");
  ASSERT_TRUE(region::create(g.small()));
  std::string why;
  ASSERT_EQ(::chmod(dev_shm(g.name).c_str(), 0666), 0);
  auto r = region::open(g.where(), &why);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error(), error::access_denied);
  EXPECT_TRUE(has(why, "pool region " + dev_shm(g.name) + " is owned by uid " + std::to_string(::geteuid()))) << why;
  EXPECT_TRUE(has(why, "mode 0666")) << why;
  EXPECT_TRUE(has(why, "expected mode 0600 or 0660")) << why;
  ASSERT_EQ(::chmod(dev_shm(g.name).c_str(), 0600), 0);
  ASSERT_TRUE(region::open(g.where()));
  ASSERT_EQ(::chmod(dev_shm(g.name + ".lock").c_str(), 0604), 0);
  r = region::open(g.where(), &why);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error(), error::access_denied);
  EXPECT_TRUE(has(why, "lock file " + dev_shm(g.name + ".lock"))) << why;
  EXPECT_TRUE(has(why, "mode 0604")) << why;
}

TEST(ShmOwnership, APoolOrKeyChownedToAnotherUserIsRefusedEvenByRoot) {
  if (::geteuid() != 0) GTEST_SKIP() << "chown to another user needs root";
  pool_guard g("sec-chown");
  ASSERT_TRUE(region::create(g.small()));
  test::temp_dir dir;
  auto key = dir.write("key.zkey", random_bytes(30'000, 3));
  const std::string id = srs_region::load(g.name, key).value().key_id();
  ASSERT_EQ(::chown(dev_shm(g.name).c_str(), 65534, 65534), 0);
  std::string why;
  auto r = region::open(g.where(), &why);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error(), error::access_denied);
  EXPECT_TRUE(has(why, "is owned by uid 65534 gid 65534 with mode 0600; expected owner root (this process)")) << why;

  ASSERT_EQ(::chown(srs_path(g.name, id).c_str(), 65534, 65534), 0);
  auto s = srs_region::open(g.name, id, &why);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error(), error::access_denied);
  EXPECT_TRUE(has(why, "SRS region " + srs_path(g.name, id) + " is owned by uid 65534")) << why;
  auto again = srs_region::load(g.name, key, &why);  // never adopted by a load either
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error(), error::access_denied) << why;
  ASSERT_EQ(::chown(srs_path(g.name, id).c_str(), 0, 0), 0);
  ASSERT_EQ(::chmod(srs_path(g.name, id).c_str(), 0644), 0);
  s = srs_region::open(g.name, id, &why);
  ASSERT_FALSE(s);
  EXPECT_TRUE(has(why, "mode 0644")) << why;
}

// --- symbolic links planted in the service's directory ---------------------

TEST(ShmSymlinks, ALinkAtThePoolsNameIsRefusedByCreateAndOpenAndItsTargetUntouched) {
  pool_guard g("sec-link"), target("sec-link-target");
  ASSERT_TRUE(region::create(target.small()));
  unlink_at_exit link{dev_shm(g.name)};
  ASSERT_EQ(::symlink(dev_shm(target.name).c_str(), link.path.c_str()), 0);
  std::string why;
  auto o = region::open(g.where(), &why);
  ASSERT_FALSE(o);
  EXPECT_EQ(o.error(), error::access_denied);
  EXPECT_TRUE(has(why, dev_shm(g.name) + " is a symbolic link")) << why;
  auto c = region::create(g.small(), &why);
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error(), error::already_exists);
  EXPECT_TRUE(has(why, "symbolic link")) << why;
  EXPECT_TRUE(region::open(target.where()));  // the target was neither truncated nor recreated
  struct stat st {};
  ASSERT_EQ(::lstat(link.path.c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode));
}

TEST(ShmSymlinks, ALockFileReplacedByALinkIsRefused) {
  pool_guard g("sec-locklink"), other("sec-locklink-other");
  ASSERT_TRUE(region::create(g.small()));
  ASSERT_TRUE(region::create(other.small()));
  const std::string lock = dev_shm(g.name + ".lock");
  ASSERT_EQ(::unlink(lock.c_str()), 0);
  ASSERT_EQ(::symlink(dev_shm(other.name + ".lock").c_str(), lock.c_str()), 0);
  std::string why;
  auto o = region::open(g.where(), &why);
  ASSERT_FALSE(o);
  EXPECT_EQ(o.error(), error::access_denied);
  EXPECT_TRUE(has(why, "lock file " + lock + " is a symbolic link")) << why;
}

TEST(ShmSymlinks, ALinkAtALockFilesNameMakesCreateFailWithoutFollowingIt) {
  pool_guard g("sec-lockname");
  test::temp_dir dir;
  auto victim = dir.write("victim", {1, 2, 3});
  unlink_at_exit link{dev_shm(g.name + ".lock")};
  ASSERT_EQ(::symlink(victim.c_str(), link.path.c_str()), 0);
  std::string why;
  auto c = region::create(g.small(), &why);
  ASSERT_FALSE(c);
  EXPECT_EQ(c.error(), error::already_exists);
  EXPECT_TRUE(has(why, "not a regular file")) << why;
  EXPECT_EQ(std::filesystem::file_size(victim), 3u);
  EXPECT_EQ(::access(dev_shm(g.name).c_str(), F_OK), -1);
}

TEST(ShmSymlinks, ALinkAtAnSrsRegionsNameIsRefusedByOpenAndLoad) {
  pool_guard g("sec-srslink"), other("sec-srslink-other");
  test::temp_dir dir;
  auto bytes = random_bytes(20'000, 4);
  auto key = dir.write("key.zkey", bytes);
  const std::string id = content_hash(bytes);
  ASSERT_TRUE(srs_region::load(other.name, key));
  unlink_at_exit link{srs_path(g.name, id)};
  ASSERT_EQ(::symlink(srs_path(other.name, id).c_str(), link.path.c_str()), 0);
  std::string why;
  auto o = srs_region::open(g.name, id, &why);
  ASSERT_FALSE(o);
  EXPECT_EQ(o.error(), error::access_denied);
  EXPECT_TRUE(has(why, "is a symbolic link")) << why;
  auto l = srs_region::load(g.name, key, &why);
  ASSERT_FALSE(l);
  EXPECT_EQ(l.error(), error::access_denied) << why;
}

// --- key files that are not regular files -----------------------------------

/* Runs f in a child and gives its exit status, or -1 when it ran past 5 s
   (it blocked) and was killed. */
int within_5s(const std::function<int()>& f) {
  pid_t pid = ::fork();
  if (pid == 0) ::_exit(f());
  return test::wait_child(pid, std::chrono::seconds(5));
}

constexpr int refused_not_regular = 10;

int load_status(const std::string& pool, const std::filesystem::path& p) {
  std::string why;
  auto s = srs_region::load(pool, p, &why);
  if (s) return 0;
  return s.error() == error::not_regular_file && !why.empty() ? refused_not_regular : 1;
}

TEST(ShmKeyFiles, AFifoADirectoryOrALinkIsRefusedAtOnce) {
  pool_guard g("sec-fifo");
  test::temp_dir dir;
  auto real = dir.write("real.zkey", random_bytes(10'000, 5));
  const auto fifo = dir.path / "key.fifo", link = dir.path / "link.zkey", sub = dir.path / "sub";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  ASSERT_EQ(::symlink(real.c_str(), link.c_str()), 0);
  std::filesystem::create_directory(sub);
  EXPECT_EQ(within_5s([&] { return load_status(g.name, fifo); }), refused_not_regular) << "a FIFO (-1: it blocked)";
  EXPECT_EQ(within_5s([&] { return load_status(g.name, sub); }), refused_not_regular) << "a directory";
  EXPECT_EQ(within_5s([&] { return load_status(g.name, link); }), refused_not_regular) << "a symbolic link";
  EXPECT_EQ(within_5s([&] {
              int fd = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
              std::string why;
              auto s = srs_region::load(g.name, fd, "the client's key", &why);
              return !s && s.error() == error::not_regular_file && has(why, "key file the client's key is a FIFO")
                         ? refused_not_regular
                         : 1;
            }),
            refused_not_regular)
      << "a FIFO's descriptor";
  EXPECT_TRUE(list_srs(g.name).empty());
}

TEST(ShmKeyFiles, AKeyFileTruncatedWhileItLoadsIsAnErrorNeverACrash) {
  // The old loader hashed an mmap of the file: a truncation under it was SIGBUS.
  test::temp_dir dir;
  auto rng = test::rng(6);
  for (int round = 0; round < 6; ++round) {
    pool_guard g("sec-trunc");
    auto path = dir.write("big.zkey", random_bytes(24 << 20, 7 + static_cast<std::uint64_t>(round)));
    const auto delay = std::chrono::microseconds(rng() % 20'000);
    int st = within_5s([&] {
      std::thread cut([&] {
        std::this_thread::sleep_for(delay);
        (void)::truncate(path.c_str(), 4096);
      });
      std::string why;
      auto s = srs_region::load(g.name, path, &why);
      cut.join();
      if (s) return s->verify() ? 0 : 2;
      return s.error() == error::srs_mismatch && why.find("shrank while being read") != std::string::npos ? 0 : 3;
    });
    EXPECT_EQ(st, 0) << "round " << round << ", truncated after " << delay.count() << " us (-1: killed by a signal)";
    for (const std::string& k : list_srs(g.name)) EXPECT_TRUE(srs_region::open(g.name, k)) << "a partial region stayed";
  }
}

}  // namespace
}  // namespace cuzk::shm
