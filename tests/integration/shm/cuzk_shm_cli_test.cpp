// The cuzk-shm tool, run as a program: create, status --json, destroy
// refusing while a lease is live, --force, load-srs, errors on stderr.
#include <grp.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "pool_guard.hpp"
#include "run.hpp"
#include "shm_dir_scope.hpp"
#include "shm/lease.hpp"
#include "shm/shm_dir.hpp"
#include "shm/srs_region.hpp"

namespace cuzk::shm {
namespace {

using test::pool_guard;

using test::run_result;

run_result cli(const std::string& args, const std::string& env = "") {
  return test::run(env + std::string(CUZK_SHM_BIN) + " " + args);
}

int lines(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }

/* ensure --config cuzk.toml (what cuzk-shm.service runs): creates the pool
   when absent, accepts it unchanged when present (its jobs kept), refuses a
   different layout without touching it; flags win over the file; an unknown
   key names the line. */
TEST(CuzkShmCli, EnsureFromTheTomlConfigCreatesOnceThenValidatesAndNeverDestroys) {
  pool_guard g("ensure");
  const auto cfg = std::filesystem::temp_directory_path() / (g.name + ".toml");
  std::ofstream(cfg) << "[pool]\nname = \"" << g.name << "\"\nslots = [\"2x1000\"]\njobs = 4\nleases = 8\n"
                     << "[server]\nendpoint = \"ipc:///tmp/x\"\n";
  auto c = cli("ensure --config " + cfg.string());
  ASSERT_EQ(c.rc, 0) << c.err;
  EXPECT_NE(c.out.find("created pool"), std::string::npos) << c.out;
  const auto before = region::open(g.where()).value().header().created_unix_ns;
  auto again = cli("ensure --config " + cfg.string());
  ASSERT_EQ(again.rc, 0) << again.err;
  EXPECT_NE(again.out.find("present, layout as configured"), std::string::npos) << again.out;
  EXPECT_EQ(region::open(g.where()).value().header().created_unix_ns, before) << "ensure recreated the pool";
  auto other = cli("ensure --config " + cfg.string() + " --jobs 16");
  EXPECT_NE(other.rc, 0);
  EXPECT_NE(other.err.find("another layout"), std::string::npos) << other.err;
  EXPECT_EQ(region::open(g.where()).value().header().created_unix_ns, before) << "ensure touched a pool it refused";
  std::ofstream(cfg, std::ios::app) << "slotz = 3\n";
  auto bad = cli("ensure --config " + cfg.string());
  EXPECT_NE(bad.rc, 0);
  EXPECT_NE(bad.err.find(".toml:8: unknown key server.slotz"), std::string::npos) << bad.err;
  std::filesystem::remove(cfg);
}

TEST(CuzkShmCli, CreateStatusDestroyWithALiveLeaseThenForce) {
  pool_guard g("cli");
  auto c = cli("create --name " + g.name + " --slots 2x1000 --slots 1x4096:w=5000 --jobs 4 --leases 8 --threads 2");
  ASSERT_EQ(c.rc, 0) << c.err;
  EXPECT_NE(c.out.find("created pool"), std::string::npos);

  auto again = cli("create --name " + g.name + " --slots 2x1000");
  EXPECT_NE(again.rc, 0);
  EXPECT_EQ(lines(again.err), 1) << again.err;
  EXPECT_NE(again.err.find("already exists with a different layout"), std::string::npos) << again.err;

  region r = region::open(g.where()).value();
  auto l = lease::take(r, role::worker, "worker@1");
  ASSERT_TRUE(l);

  auto s = cli("status --name " + g.name + " --json");
  ASSERT_EQ(s.rc, 0) << s.err;
  auto j = nlohmann::json::parse(s.out);
  ASSERT_EQ(j["slots"].size(), 3u);
  EXPECT_EQ(j["slots"][0]["state"], "free");
  EXPECT_EQ(j["slots"][0]["generation"], 0);
  EXPECT_EQ(j["slots"][2]["class"], 1);
  ASSERT_EQ(j["leases"].size(), 1u);
  EXPECT_EQ(j["leases"][0]["name"], "worker@1");
  EXPECT_EQ(j["leases"][0]["state"], "alive");
  EXPECT_EQ(j["leases"][0]["pid"], ::getpid());
  EXPECT_EQ(j["classes"][1]["witness"], 5000);
  EXPECT_TRUE(j["jobs"].empty());

  auto table = cli("status --name " + g.name);
  ASSERT_EQ(table.rc, 0);
  EXPECT_NE(table.out.find("worker@1"), std::string::npos);

  auto refused = cli("destroy --name " + g.name);
  EXPECT_NE(refused.rc, 0);
  EXPECT_EQ(lines(refused.err), 1) << refused.err;
  EXPECT_NE(refused.err.find("in use"), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find("worker@1"), std::string::npos) << refused.err;
  EXPECT_TRUE(region::open(g.where()));

  auto forced = cli("destroy --name " + g.name + " --force");
  EXPECT_EQ(forced.rc, 0) << forced.err;
  auto gone = cli("status --name " + g.name);
  EXPECT_NE(gone.rc, 0);
  EXPECT_NE(gone.err.find("no region"), std::string::npos) << gone.err;
}

TEST(CuzkShmCli, DestroySucceedsOnceTheLeaseIsGoneAndRemovesSrsRegions) {
  pool_guard g("cli-srs");
  ASSERT_EQ(cli("create --name " + g.name + " --slots 1x64").rc, 0);
  const std::string key_path = std::filesystem::temp_directory_path() / ("cuzk-cli-key-" + std::to_string(::getpid()));
  std::ofstream(key_path) << "not really a zkey, but bytes to keep";
  auto load = cli("load-srs --name " + g.name + " --zkey " + key_path);
  std::filesystem::remove(key_path);
  ASSERT_EQ(load.rc, 0) << load.err;
  std::string key = load.out.substr(0, load.out.find('\n'));
  EXPECT_EQ(key.size(), 32u);
  EXPECT_EQ(list_srs(g.name), std::vector<std::string>{key});
  {
    region r = region::open(g.where()).value();
    auto l = lease::take(r, role::server, "gpu-server");
    ASSERT_TRUE(l);
    EXPECT_NE(cli("destroy --name " + g.name).rc, 0);
  }
  auto d = cli("destroy --name " + g.name);
  EXPECT_EQ(d.rc, 0) << d.err;
  EXPECT_TRUE(list_srs(g.name).empty());
}

TEST(CuzkShmCli, CreateReadsAConfigFile) {
  pool_guard g("cli-config");
  const std::string cfg =
      std::filesystem::temp_directory_path() / ("cuzk-cli-config-" + std::to_string(::getpid()) + ".json");
  std::ofstream(cfg)
      << R"({"name": ")" << g.name
      << R"(", "slots": ["2x100", {"count": 1, "constraints": 300, "witness": 700}], "jobs": 3, "leases": 5, "threads": 1})";
  auto c = cli("create --config " + cfg);
  std::filesystem::remove(cfg);
  ASSERT_EQ(c.rc, 0) << c.err;
  region r = region::open(g.where()).value();
  EXPECT_EQ(r.header().n_slots, 3u);
  EXPECT_EQ(r.header().job_capacity, 3u);
  EXPECT_EQ(r.header().lease_capacity, 5u);
  EXPECT_EQ(r.header().classes[1].witness, 700u);
}

TEST(CuzkShmCli, CreateGivesThePoolItsLockFileAndItsKeysOnlyToItsOwnerOrItsGroup) {
  auto dir_mode = [] {
    struct stat st {};
    EXPECT_EQ(::lstat(shm_dir().c_str(), &st), 0) << shm_dir();
    return std::pair<unsigned, gid_t>(st.st_mode & 07777, st.st_gid);
  };
  const std::string key_path = std::filesystem::temp_directory_path() / ("cuzk-cli-gkey-" + std::to_string(::getpid()));
  std::ofstream(key_path) << "key bytes for a mode test";
  auto modes = [&](const std::string& pool, const std::string& key) {
    std::vector<std::pair<unsigned, gid_t>> out;
    for (const std::string& p : {shm_path(pool), shm_path(pool + ".lock"), shm_path(pool + ".srs." + key)}) {
      struct stat st {};
      EXPECT_EQ(::stat(p.c_str(), &st), 0) << p;
      out.emplace_back(st.st_mode & 07777, st.st_gid);
    }
    return out;
  };
  {
    test::shm_dir_scope d("cli-0600");  // absent: create makes it
    pool_guard g("cli-0600");
    ASSERT_EQ(::rmdir(d.path.c_str()), 0) << "the guard made it";
    auto c = cli("create --name " + g.name + " --slots 1x64 --threads 1");
    ASSERT_EQ(c.rc, 0) << c.err;
    EXPECT_EQ(dir_mode().first, 0750u);
    EXPECT_NE(c.out.find("mode 0600"), std::string::npos) << c.out;
    auto l = cli("load-srs --name " + g.name + " --zkey " + key_path);
    ASSERT_EQ(l.rc, 0) << l.err;
    for (auto [mode, gid] : modes(g.name, l.out.substr(0, 32))) EXPECT_EQ(mode, 0600u);
  }
  const struct group* grp = ::getgrnam("nogroup");
  if (!grp) grp = ::getgrnam("daemon");
  if (grp && ::geteuid() == 0) {
    const std::string name = grp->gr_name;
    const gid_t gid = grp->gr_gid;
    test::shm_dir_scope d("cli-0660");
    pool_guard g("cli-0660");
    ASSERT_EQ(::rmdir(d.path.c_str()), 0) << "the guard made it";
    auto c = cli("create --name " + g.name + " --slots 1x64 --threads 1 --group " + name);
    ASSERT_EQ(c.rc, 0) << c.err;
    EXPECT_EQ(dir_mode(), std::make_pair(0770u, gid)) << "the service group may create keys in the directory";
    EXPECT_NE(c.out.find("mode 0660, group " + name), std::string::npos) << c.out;
    auto l = cli("load-srs --name " + g.name + " --zkey " + key_path);
    ASSERT_EQ(l.rc, 0) << l.err;
    for (auto [mode, file_gid] : modes(g.name, l.out.substr(0, 32))) {
      EXPECT_EQ(mode, 0660u);
      EXPECT_EQ(file_gid, gid);
    }
  }
  std::filesystem::remove(key_path);
  pool_guard g("cli-badgroup");
  auto bad = cli("create --name " + g.name + " --slots 1x64 --group cuzk-no-such-group");
  EXPECT_NE(bad.rc, 0);
  EXPECT_EQ(lines(bad.err), 1) << bad.err;
  EXPECT_NE(bad.err.find("group 'cuzk-no-such-group' does not exist"), std::string::npos) << bad.err;
}

TEST(CuzkShmCli, ALoadSrsKilledMidCopyIsReclaimedByTheNextOne) {
  pool_guard g("cli-srs-kill");
  ASSERT_EQ(cli("create --name " + g.name + " --slots 1x64 --threads 1").rc, 0);
  const std::string key_path = std::filesystem::temp_directory_path() / ("cuzk-cli-kkey-" + std::to_string(::getpid()));
  {
    std::ofstream f(key_path, std::ios::binary);
    std::string chunk(1 << 20, '\0');
    for (int i = 0; i < 3; ++i) {
      for (std::size_t k = 0; k < chunk.size(); ++k) chunk[k] = static_cast<char>((k * 131 + i * 7) >> 3);
      f << chunk;
    }
  }
  auto killed = cli("load-srs --name " + g.name + " --zkey " + key_path, "CUZK_FAILPOINT=srs.load.copy:2 ");
  EXPECT_TRUE(killed.rc == 128 + 9 || killed.rc == -1) << "rc " << killed.rc << ": " << killed.err;
  ASSERT_EQ(list_srs(g.name).size(), 1u);
  std::string why;
  EXPECT_EQ(srs_region::open(g.name, list_srs(g.name)[0], &why).error(), error::srs_abandoned) << why;
  auto again = cli("load-srs --name " + g.name + " --zkey " + key_path);
  std::filesystem::remove(key_path);
  ASSERT_EQ(again.rc, 0) << again.err;
  EXPECT_EQ(again.out.substr(0, 32), list_srs(g.name).at(0));
  auto s = srs_region::open(g.name, list_srs(g.name)[0], &why);
  ASSERT_TRUE(s) << why;
  EXPECT_TRUE(s->verify());
  EXPECT_EQ(s->bytes().size(), 3u << 20);
}

TEST(CuzkShmCli, EveryErrorIsOneLineAndANonZeroExit) {
  pool_guard g("cli-errors");
  for (const std::string& args :
       {"status --name " + g.name, "destroy --name " + g.name, "create --name " + g.name + " --slots 4y5",
        std::string("create --slots 1x64"), "create --name " + g.name + " --slots 1x2^40",
        "load-srs --name " + g.name + " --zkey /nonexistent", std::string("bogus")}) {
    auto r = cli(args);
    EXPECT_NE(r.rc, 0) << args;
    EXPECT_EQ(lines(r.err), 1) << args << ": " << r.err;
    EXPECT_EQ(r.err.rfind("cuzk-shm: error: ", 0), 0u) << args << ": " << r.err;
  }
}

}  // namespace
}  // namespace cuzk::shm
