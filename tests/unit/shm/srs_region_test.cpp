#include "shm/srs_region.hpp"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "pool_guard.hpp"
#include "seed.hpp"

namespace cuzk::shm {
namespace {

using test::pool_guard;

struct temp_file {
  std::filesystem::path path;
  explicit temp_file(const std::vector<std::uint8_t>& bytes) {
    path = std::filesystem::temp_directory_path() / ("cuzk-srs-test-" + std::to_string(::getpid()) + "-" +
                                                     std::to_string(reinterpret_cast<std::uintptr_t>(this)));
    std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  }
  ~temp_file() { std::filesystem::remove(path); }
};

std::vector<std::uint8_t> random_bytes(std::size_t n, std::uint64_t salt) {
  auto rng = test::rng(salt);
  std::vector<std::uint8_t> v(n);
  for (auto& b : v) b = static_cast<std::uint8_t>(rng());
  return v;
}

TEST(ContentHash, IsXxh3_128AsHex) {
  // XXH3_128bits of the empty input (xxhash's test vectors: 0x99AA06D3014798D86001C324468D497F).
  EXPECT_EQ(content_hash({}), "99aa06d3014798d86001c324468d497f");
  std::vector<std::uint8_t> a{1, 2, 3}, b{1, 2, 4};
  EXPECT_NE(content_hash(a), content_hash(b));
  EXPECT_EQ(content_hash(a).size(), 32u);
}

TEST(SrsRegion, LoadCopiesTheKeyAndNamesItByItsHash) {
  pool_guard g("srs");
  auto bytes = random_bytes(100'000, 1);
  temp_file f(bytes);
  std::string why;
  auto s = srs_region::load(g.name, f.path, &why);
  ASSERT_TRUE(s) << why;
  EXPECT_EQ(s->key_id(), content_hash(bytes));
  ASSERT_EQ(s->bytes().size(), bytes.size());
  EXPECT_TRUE(std::equal(bytes.begin(), bytes.end(), s->bytes().begin()));
  EXPECT_TRUE(s->verify());
  EXPECT_EQ(list_srs(g.name), std::vector<std::string>{s->key_id()});
}

TEST(SrsRegion, ItOutlivesItsLoaderAndLoadingAgainReusesIt) {
  pool_guard g("srs-keep");
  auto bytes = random_bytes(5000, 2);
  temp_file f(bytes);
  std::string key;
  { key = srs_region::load(g.name, f.path)->key_id(); }
  auto o = srs_region::open(g.name, key);
  ASSERT_TRUE(o);
  EXPECT_EQ(o->bytes().size(), 5000u);
  auto again = srs_region::load(g.name, f.path);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->key_id(), key);
  EXPECT_EQ(list_srs(g.name).size(), 1u);
  ASSERT_TRUE(srs_region::destroy(g.name, key));
  EXPECT_EQ(srs_region::open(g.name, key).error(), error::not_found);
  EXPECT_EQ(srs_region::destroy(g.name, key).error(), error::not_found);
}

TEST(SrsRegion, ACorruptHeaderIsRefusedNamingTheField) {
  pool_guard g("srs-bad");
  auto bytes = random_bytes(3000, 3);
  temp_file f(bytes);
  std::string key = srs_region::load(g.name, f.path)->key_id();
  int fd = ::open(("/dev/shm/" + g.name + ".srs." + key).c_str(), O_RDWR);
  ASSERT_GE(fd, 0);
  auto* h = static_cast<std::uint8_t*>(::mmap(nullptr, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0));
  ::close(fd);
  ASSERT_NE(h, MAP_FAILED);
  std::string why;
  h[8] ^= 0xff;  // version
  auto o = srs_region::open(g.name, key, &why);
  ASSERT_FALSE(o);
  EXPECT_EQ(o.error(), error::srs_mismatch);
  EXPECT_NE(why.find("'version'"), std::string::npos) << why;
  h[8] ^= 0xff;
  h[40] ^= 0x01;  // first key id character
  o = srs_region::open(g.name, key, &why);
  ASSERT_FALSE(o);
  EXPECT_NE(why.find("'key_id'"), std::string::npos) << why;
  h[40] ^= 0x01;
  ASSERT_TRUE(srs_region::open(g.name, key));
  h[4096 + 17] ^= 0x01;  // content: only verify() reads it
  auto v = srs_region::open(g.name, key);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->verify().error(), error::srs_mismatch);
  ::munmap(h, 8192);
}

TEST(SrsRegion, MissingFilesAndBadKeyIdsAreErrors) {
  pool_guard g("srs-missing");
  std::string why;
  EXPECT_EQ(srs_region::load(g.name, "/nonexistent/key.zkey", &why).error(), error::not_found);
  EXPECT_EQ(srs_region::open(g.name, "not-a-key").error(), error::not_found);
  EXPECT_EQ(srs_region::open(g.name, std::string(32, 'a')).error(), error::not_found);
}

}  // namespace
}  // namespace cuzk::shm
