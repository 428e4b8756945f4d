// The gateway's API keys: a token made once and kept nowhere; only its hash in
// the key's file (0600); the store names a token's key, refuses any other
// string, and forgets a key within a second of its file going.
#include "net/api_keys.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <thread>

#include "temp_dir.hpp"

namespace cuzk::net {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

TEST(ApiKeys, ATokenIsNamedByItsKeyAndNothingElseIs) {
  test::temp_dir t;
  const auto dir = t.path() / "api-keys.d";
  const auto alice = make_api_key(dir, "alice"), bob = make_api_key(dir, "bob");
  EXPECT_TRUE(alice.token.starts_with("cuzk_"));
  EXPECT_EQ(alice.token.size(), 5u + 43u);
  EXPECT_NE(alice.token, bob.token);
  EXPECT_EQ(fs::status(dir).permissions() & fs::perms::all, fs::perms::owner_all);
  EXPECT_EQ(fs::status(dir / "alice").permissions() & fs::perms::all, fs::perms::owner_read | fs::perms::owner_write);
  std::string stored;
  std::getline(std::ifstream(dir / "alice"), stored);
  EXPECT_EQ(stored, api_key_hash(alice.token));
  EXPECT_EQ(stored.find(alice.token.substr(5)), std::string::npos) << "the token itself is kept";

  api_key_store keys(dir);
  EXPECT_EQ(keys.size(), 2u);
  EXPECT_EQ(keys.name_of(alice.token), "alice");
  EXPECT_EQ(keys.name_of(bob.token), "bob");
  std::string changed = alice.token;
  changed.back() = changed.back() == 'A' ? 'B' : 'A';
  for (const auto& t2 : {changed, alice.token.substr(0, 20), std::string(""), stored, std::string(4096, 'x')})
    EXPECT_EQ(keys.name_of(t2), std::nullopt) << t2.substr(0, 60);
  EXPECT_THROW(make_api_key(dir, "alice"), std::runtime_error) << "a key made over an existing one";
  EXPECT_THROW(make_api_key(dir, "../evil"), std::invalid_argument);
}

TEST(ApiKeys, RemovingAKeysFileRevokesItWithinASecond) {
  test::temp_dir t;
  const auto dir = t.path() / "api-keys.d";
  const auto alice = make_api_key(dir, "alice");
  api_key_store keys(dir);
  ASSERT_EQ(keys.name_of(alice.token), "alice");
  fs::remove(dir / "alice");
  const auto t0 = std::chrono::steady_clock::now();
  while (keys.name_of(alice.token) && std::chrono::steady_clock::now() - t0 < 3s) std::this_thread::sleep_for(10ms);
  EXPECT_EQ(keys.name_of(alice.token), std::nullopt);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 1100ms);
  // and a key made later is taken at once
  const auto carol = make_api_key(dir, "carol");
  EXPECT_EQ(keys.name_of(carol.token), "carol");
}

}  // namespace
}  // namespace cuzk::net
