// The process's one cache of parsed keys: its trim rule (pinned keys stay,
// of the others the most recently used), a key parsed unchecked not found
// until its check passed, and lookups from several threads at once.
#include "job/key_cache.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <thread>

#include "circuits/registry.hpp"
#include "groth16/native.hpp"
#include "io/zkey.hpp"
#include "pool_guard.hpp"
#include "run.hpp"

namespace cuzk::job {
namespace {

/* n keys of one small circuit (different toxic waste) as files. */
std::vector<std::filesystem::path> key_files(test::temp_dir& dir, int n) {
  auto c = circuits::make_circuit("chain:size=8");
  std::vector<std::filesystem::path> v;
  for (int i = 0; i < n; ++i)
    v.push_back(
        dir.write("k" + std::to_string(i) + ".zkey",
                  io::write_zkey(groth16::setup_circuit(*c, groth16::basic_toxic_waste<curves::bls12_381>::random()))));
  return v;
}

bool cached(const key_cache& c, const std::string& id) {
  const auto ids = c.ids();
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

TEST(KeyCache, PinnedKeysStayAndOfTheOthersTheMostRecentlyUsed) {
  test::temp_dir dir;
  const auto files = key_files(dir, 4);
  test::pool_guard g("kc-trim");
  std::set<std::string> pins;
  key_cache cache(g.name, 1, [&] { return pins; });
  const auto a = cache.load(files[0]);
  pins.insert(a);  // named by an active job
  const auto b = cache.load(files[1]);
  const auto c = cache.load(files[2]);
  EXPECT_TRUE(cached(cache, a)) << "pinned";
  EXPECT_FALSE(cached(cache, b)) << "the least recently used of the others";
  EXPECT_TRUE(cached(cache, c));
  (void)cache.get(a);
  const auto d = cache.load(files[3]);
  EXPECT_TRUE(cached(cache, a));
  EXPECT_FALSE(cached(cache, c));
  EXPECT_TRUE(cached(cache, d));
  pins.clear();  // its job ended
  cache.trim();
  EXPECT_EQ(cache.ids().size(), 1u);
  EXPECT_TRUE(cached(cache, d)) << "used after a";
  EXPECT_TRUE(cache.get(b)) << "an evicted key is parsed again from its region";
}

TEST(KeyCache, AKeyParsedUncheckedIsNotFoundUntilItsCheckPassed) {
  test::temp_dir dir;
  const auto files = key_files(dir, 1);
  test::pool_guard g("kc-find");
  const auto id = key_cache(g.name).load(files[0]);  // its region, made by another cache
  key_cache cache(g.name);
  EXPECT_FALSE(cache.find(id));
  ASSERT_TRUE(cache.get(id, false));
  EXPECT_FALSE(cache.find(id)) << "nothing proves with a key before its check";
  EXPECT_TRUE(cached(cache, id));
  cache.verify(id);
  EXPECT_TRUE(cache.find(id));
}

TEST(KeyCache, ThreadsGettingOneKeyShareOneParsedKeyWhileLookupsGoOn) {
  test::temp_dir dir;
  const auto files = key_files(dir, 2);
  test::pool_guard g("kc-threads");
  const auto id = key_cache(g.name).load(files[0]);
  key_cache cache(g.name, 1);
  std::atomic<bool> done{false};
  std::thread looker([&] {
    while (!done) (void)cache.find(id);  // never waits for the parses
  });
  any_key x, y;
  std::thread t1([&] { x = cache.get(id); });
  std::thread t2([&] { y = cache.get(id); });
  t1.join();
  t2.join();
  done = true;
  looker.join();
  ASSERT_TRUE(x && y);
  EXPECT_EQ(x.as<curves::bls12_381>(), y.as<curves::bls12_381>()) << "the second parse finds the first in the cache";
  EXPECT_EQ(cache.find(id).as<curves::bls12_381>(), x.as<curves::bls12_381>());
  (void)cache.load(files[1]);  // capacity 1: evicts it
  EXPECT_FALSE(cache.find(id));
}

}  // namespace
}  // namespace cuzk::job
