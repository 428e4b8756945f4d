// Predictable names in /dev/shm (issue 19): another local user (nobody,
// through setpriv) takes, ahead of the operator, every name the service will
// use for its pool, lock file, SRS regions and setup's temporary file, or the
// service's directory itself. The old code kept those files in /dev/shm,
// where anyone may create names: the squatted names refused the pool's
// creation, and `cuzk setup --pool` wrote keys there for any user.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

#include "harness.hpp"
#include "hostile.hpp"
#include "run.hpp"
#include "seed.hpp"
#include "shm/shm_dir.hpp"
#include "shm/srs_region.hpp"
#include "shm_dir_scope.hpp"

namespace cuzk::test {
namespace {

using namespace std::chrono_literals;

const std::string circuit = "chain:size=64";

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

/* What `sh -c script` did as nobody: its exit status. */
int nobody_sh(const std::string& script) { return run(as_nobody("sh -c '" + script + "'")).rc; }

/* Files nobody leaves behind, removed whatever the test's outcome. */
struct planted {
  std::vector<std::string> paths;
  ~planted() {
    for (const auto& p : paths) ::unlink(p.c_str());
  }
};

/* The names in a directory that start with prefix. */
std::set<std::string> names(const std::string& dir, const std::string& prefix) {
  std::set<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().filename().string().rfind(prefix, 0) == 0) out.insert(e.path().filename().string());
  return out;
}

std::string key_id_of(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  const std::string bytes{std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
  return shm::content_hash({reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()});
}

TEST(ShmNames, NamesAnotherUserTookAheadOfTheOperatorChangeNothing) {
  REQUIRE_SECOND_UID();
  shm_dir_scope d("names");
  ASSERT_TRUE(d.make(0750));  // as tmpfiles makes it at boot (here root's)
  const std::string pool = service::next_pool();
  const auto& key = key_for(circuit);
  const std::string id = key_id_of(key.path);
  const std::vector<std::string> taken{pool, pool + ".lock", pool + ".srs." + id, pool + ".srs.new"};

  planted left;
  const std::string bait = "/dev/shm/cuzk-test-bait-" + std::to_string(::getpid());
  ASSERT_EQ(nobody_sh(": > " + bait), 0);
  left.paths.push_back(bait);
  for (std::size_t i = 0; i < taken.size(); ++i) {
    // Where the names used to be, everyone may create them: files and links.
    const std::string old_place = "/dev/shm/" + taken[i];
    ASSERT_EQ(nobody_sh(i % 2 ? "ln -s " + bait + " " + old_place : ": > " + old_place), 0) << old_place;
    left.paths.push_back(old_place);
    // In the service's directory, nobody can create anything.
    EXPECT_NE(nobody_sh(": > " + shm::shm_path(taken[i])), 0) << "nobody created " << shm::shm_path(taken[i]);
    EXPECT_NE(nobody_sh("ln -s " + bait + " " + shm::shm_path(taken[i])), 0) << "nobody linked " << taken[i];
  }
  EXPECT_NE(nobody_sh("mkdir " + d.path), 0);
  EXPECT_NE(nobody_sh("rm -rf " + d.path + "; mv " + bait + " " + d.path), 0);

  service svc({"2x4096"});  // the old code: "region ... already exists"
  ASSERT_EQ(svc.pool(), pool);
  EXPECT_EQ(load_srs(svc, key.path), id);
  auto server = svc.start_server({}, {"--key", id});
  auto worker = svc.start_worker("w1");
  auto c = svc.connect();
  ASSERT_TRUE(eventually([&] { return c.status().workers.size() == 1; }, 30s));
  auto s = native_submit("after-squatting", circuit, seed(), "shm_names_test");
  s.zkey = id;
  c.submit(s);
  auto out = c.wait("after-squatting", 120s);
  const auto* pr = std::get_if<proto::proof_reply>(&out);
  ASSERT_NE(pr, nullptr) << server_logs(svc);
  EXPECT_TRUE(verifies(*key.pk, pr->partitions.at(0).proof_json, pr->partitions.at(0).public_json));
  EXPECT_EQ(names(d.path, pool), (std::set<std::string>{pool, pool + ".lock", pool + ".srs." + id}));
}

TEST(ShmNames, ADirectoryAnotherUserMadeAtItsNameIsRefusedNamingThatUser) {
  REQUIRE_SECOND_UID();
  shm_dir_scope d("squatted");
  const std::string pool = "cuzk-test-squatted-" + std::to_string(::getpid());
  ASSERT_EQ(nobody_sh("mkdir -m 0777 " + d.path), 0);
  for (const std::string cmd : {"create", "ensure"}) {
    auto r = run(shm_bin() + " " + cmd + " --name " + pool + " --slots 1x64 --threads 1");
    EXPECT_NE(r.rc, 0) << cmd << " used a directory nobody made";
    EXPECT_TRUE(
        has(r.err, d.path + " belongs to uid 65534 (nobody), neither this process's user (uid 0 (root)) nor root"))
        << r.err;
    EXPECT_TRUE(has(r.err,
                    "another user created it to take the service's names; remove it and run cuzk-shm create "
                    "again"))
        << r.err;
  }
  EXPECT_TRUE(names(d.path, "").empty()) << "the operator wrote into nobody's directory";
  (void)run(shm_bin() + " destroy --force --name " + pool);  // the old code made the pool in /dev/shm

  // A link at its name, to a directory of nobody's.
  d.remove();
  const std::string target = d.path + "-target";
  planted left{{d.path}};
  ASSERT_EQ(nobody_sh("mkdir -m 0777 " + target + " && ln -s " + target + " " + d.path), 0);
  auto r = run(shm_bin() + " create --name " + pool + " --slots 1x64 --threads 1");
  EXPECT_NE(r.rc, 0);
  EXPECT_TRUE(has(r.err, d.path + " is a symbolic link made by uid 65534 (nobody)")) << r.err;
  EXPECT_TRUE(names(target, "").empty()) << "the link was followed";
  (void)run(shm_bin() + " destroy --force --name " + pool);
  fs::remove_all(target);
}

TEST(ShmNames, SetupIntoThePoolByAnotherUserFailsAndWritesNothing) {
  REQUIRE_SECOND_UID();
  shm_dir_scope d("setup");
  service svc({"2x4096"});
  const auto before = names(d.path, ""), before_shm = names("/dev/shm", svc.pool());
  const auto r = run(
      as_nobody("timeout 120 " + cli_bin() + " setup --circuit " + circuit + " --backend cpu --pool " + svc.pool()));
  EXPECT_NE(r.rc, 0) << "nobody wrote a key into the pool";
  EXPECT_TRUE(has(r.err, "cuzk: error: --pool " + svc.pool() +
                             ": this process (uid 65534 (nobody)) may not create files in " + d.path))
      << r.err;
  EXPECT_FALSE(has(r.err, "setup for")) << "refused only after the setup's work: " << r.err;
  EXPECT_EQ(names(d.path, ""), before);
  EXPECT_EQ(names("/dev/shm", svc.pool()), before_shm);
  for (const auto& n : names("/dev/shm", svc.pool() + ".srs.")) ::unlink(("/dev/shm/" + n).c_str());  // the old code's
}

}  // namespace
}  // namespace cuzk::test
