// Naming keys and jobs by id (DESIGN §9, issue 19): ids are no secret (a key
// id is a file's hash and lies in /dev/shm's listing; job ids are chosen by
// clients), so an id alone must never reach a key the client could not read,
// nor, for an operator, whichever user's job with that id comes first.
#include <gtest/gtest.h>
#include <pwd.h>
#include <sys/stat.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "harness.hpp"
#include "hostile.hpp"
#include "run.hpp"
#include "seed.hpp"
#include "shm/srs_region.hpp"

namespace cuzk::test {
namespace {

using namespace std::chrono_literals;

const std::string circuit = "chain:size=64";

/* A copy of a test key's bytes, with its own mode (root-owned). */
std::string key_copy(const fs::path& to, const std::string& spec, mode_t mode) {
  fs::copy_file(key_for(spec).path, to, fs::copy_options::overwrite_existing);
  ::chmod(to.c_str(), mode);
  std::ifstream f(to, std::ios::binary);
  const std::string bytes{std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
  return shm::content_hash({reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()});
}

std::string replaced(std::string s, const std::string& what, const std::string& with) {
  for (auto at = s.find(what); at != std::string::npos; at = s.find(what, at + with.size()))
    s.replace(at, what.size(), with);
  return s;
}

struct key_service {
  service svc{{"2x4096"}};
  int jobs = 0;
  /* cuzk submit as `user` (empty: root) naming the key by path or id. */
  cli_result submit(const std::string& user, const std::string& zkey, const std::string& spec = circuit) {
    const auto inputs = svc.dir() / ("in-" + std::to_string(jobs) + ".json");
    std::ofstream(inputs) << inputs_for(spec, seed() + static_cast<std::uint64_t>(jobs));
    ::chmod(inputs.c_str(), 0644);
    return cli_as(user, {"submit", "--endpoint", svc.endpoint(), "--zkey", zkey, "--circuit", spec, "--inputs",
                         inputs.string(), "--job-id", "job-" + std::to_string(jobs++)});
  }
};

TEST(KeyAccess, AKeyLoadedFromAnotherClientsPrivateFileIsUnknownByItsIdUntilTheOperatorInstallsIt) {
  REQUIRE_SECOND_UID();
  key_service k;
  auto server = k.svc.start_server({}, {"--client-group", "nogroup"});
  const auto path = k.svc.dir() / "private.zkey";
  const auto id = key_copy(path, circuit, 0600);
  const auto mine = k.submit("", path.string());
  ASSERT_EQ(mine.exit, 0) << mine.output;
  ASSERT_EQ(shm::list_srs(k.svc.pool()), std::vector<std::string>{id});

  const auto theirs = k.submit("nobody", id);
  EXPECT_EQ(theirs.exit, 2) << "a key nobody may not read was used by its id:\n" << theirs.output;
  const std::string unknown = "0123456789abcdef0123456789abcdef";
  const auto none = k.submit("nobody", unknown);
  EXPECT_EQ(none.exit, 2) << none.output;
  EXPECT_NE(none.output.find("holds no key"), std::string::npos) << none.output;
  EXPECT_EQ(replaced(theirs.output, id, "ID"), replaced(none.output, unknown, "ID"))
      << "the refusal tells the key exists";

  const auto root_by_id = k.submit("", id);  // an operator may name any key
  EXPECT_EQ(root_by_id.exit, 0) << root_by_id.output;
  EXPECT_EQ(load_srs(k.svc, path.string()), id);  // the operator installs the same key: every client may use it
  const auto installed = k.submit("nobody", id);
  EXPECT_EQ(installed.exit, 0) << installed.output;
}

TEST(KeyAccess, AClientMayNameByIdAKeyWhoseFileItCanReadWhileItCan) {
  REQUIRE_SECOND_UID();
  key_service k;
  auto server = k.svc.start_server({}, {"--client-group", "nogroup"});
  const auto path = k.svc.dir() / "shared.zkey";
  const auto id = key_copy(path, circuit, 0644);
  ASSERT_EQ(k.submit("", path.string()).exit, 0);
  const auto readable = k.submit("nobody", id);
  EXPECT_EQ(readable.exit, 0) << readable.output;
  ::chmod(path.c_str(), 0600);  // checked again at each use of the id
  const auto revoked = k.submit("nobody", id);
  EXPECT_EQ(revoked.exit, 2) << revoked.output;
}

TEST(KeyAccess, KeysTheOperatorInstalledAreUsableByAnyClientById) {
  REQUIRE_SECOND_UID();
  key_service k;
  const std::string other = "chain:size=65";
  const auto loaded = k.svc.dir() / "loaded.zkey", preloaded = k.svc.dir() / "preloaded.zkey";
  const auto loaded_id = key_copy(loaded, circuit, 0600);
  const auto preloaded_id = key_copy(preloaded, other, 0600);
  EXPECT_EQ(load_srs(k.svc, loaded.string()), loaded_id);
  {
    auto server = k.svc.start_server({}, {"--client-group", "nogroup"});
    const auto a = k.submit("nobody", loaded_id);
    EXPECT_EQ(a.exit, 0) << "installed with cuzk-shm load-srs:\n" << a.output;
    ASSERT_EQ(k.submit("", preloaded.string(), other).exit, 0);  // root's private file brings the key in
    EXPECT_EQ(server->terminate(), 0);
  }
  {  // what brought a key in outlives the server
    auto server = k.svc.start_server({}, {"--client-group", "nogroup"});
    const auto b = k.submit("nobody", preloaded_id, other);
    EXPECT_EQ(b.exit, 2) << "after a restart:\n" << b.output;
    EXPECT_EQ(server->terminate(), 0);
  }
  auto server = k.svc.start_server({}, {"--client-group", "nogroup", "--key", preloaded_id});
  const auto c = k.submit("nobody", preloaded_id, other);
  EXPECT_EQ(c.exit, 0) << "named by the server's --key:\n" << c.output;
}

}  // namespace
}  // namespace cuzk::test
