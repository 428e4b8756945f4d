#include "shm/srs_region.hpp"

#include <fcntl.h>
#include <grp.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <thread>

#include "pool_guard.hpp"
#include "seed.hpp"
#include "shm/failpoint.hpp"
#include "shm/region.hpp"
#include "shm/shm_dir.hpp"
#include "shm/srs_header.hpp"

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

TEST(SrsRegion, CreateWritesInPlaceAndNamesTheRegionByItsHash) {
  pool_guard g("srs-create");
  const auto bytes = random_bytes(70'001, 4);
  auto fill = [&](std::span<std::uint8_t> out) {
    ASSERT_EQ(out.size(), bytes.size());
    EXPECT_TRUE(std::all_of(out.begin(), out.end(), [](std::uint8_t b) { return b == 0; }));
    std::copy(bytes.begin(), bytes.end(), out.begin());
  };
  std::string why;
  auto s = srs_region::create(g.name, bytes.size(), fill, &why);
  ASSERT_TRUE(s) << why;
  EXPECT_EQ(s->key_id(), content_hash(bytes));
  EXPECT_TRUE(std::equal(bytes.begin(), bytes.end(), s->bytes().begin()));
  auto o = srs_region::open(g.name, s->key_id());
  ASSERT_TRUE(o);
  EXPECT_TRUE(o->verify());
  // the same content again: the existing region, still one
  auto again = srs_region::create(g.name, bytes.size(), fill, &why);
  ASSERT_TRUE(again) << why;
  EXPECT_EQ(again->key_id(), s->key_id());
  EXPECT_EQ(list_srs(g.name).size(), 1u);
  // and a load of the same bytes from a file finds it
  temp_file f(bytes);
  auto loaded = srs_region::load(g.name, f.path, &why);
  ASSERT_TRUE(loaded) << why;
  EXPECT_EQ(loaded->key_id(), s->key_id());
}

/* bytes of the shm object backed by memory */
std::uint64_t allocated(const std::string& pool, const std::string& key) {
  struct stat st {};
  EXPECT_EQ(::stat(shm_path(pool + ".srs." + key).c_str(), &st), 0);
  return static_cast<std::uint64_t>(st.st_blocks) * 512;
}

TEST(SrsRegion, ReleaseFreesARangeKeepsTheRestVerifiableAndLoadingTheFileAgainFindsIt) {
  pool_guard g("srs-release");
  const auto bytes = random_bytes(1'000'000, 5);
  temp_file f(bytes);
  std::string why;
  auto s = srs_region::load(g.name, f.path, &why);
  ASSERT_TRUE(s) << why;
  const std::string key = s->key_id();
  const auto before = allocated(g.name, key);
  const std::uint64_t off = 100'001, len = 600'000;  // not page-aligned at either end
  auto r = srs_region::release(g.name, key, off, len, &why);
  ASSERT_TRUE(r) << why;
  EXPECT_EQ(*r, len);
  EXPECT_LE(allocated(g.name, key) + len - 2 * 4096, before) << "the released pages are still allocated";
  auto o = srs_region::open(g.name, key);
  ASSERT_TRUE(o);
  EXPECT_EQ(o->released_bytes(), len);
  const auto c = o->bytes();
  EXPECT_TRUE(std::all_of(c.begin() + off, c.begin() + off + len, [](std::uint8_t b) { return b == 0; }));
  EXPECT_TRUE(std::equal(bytes.begin(), bytes.begin() + off, c.begin()));
  EXPECT_TRUE(std::equal(bytes.begin() + off + len, bytes.end(), c.begin() + off + len));
  EXPECT_TRUE(o->verify()) << "what remains must verify against the recorded hash";
  EXPECT_TRUE(srs_region::release(g.name, key, off, len));      // the same range again: done already
  auto over = srs_region::release(g.name, key, off + 10, len);  // a range over released bytes: refused
  ASSERT_FALSE(over);
  EXPECT_EQ(over.error(), error::srs_mismatch);
  auto again = srs_region::load(g.name, f.path, &why);  // the file's hash is still the key id
  ASSERT_TRUE(again) << why;
  EXPECT_EQ(again->key_id(), key);
  EXPECT_EQ(again->released_bytes(), len);
}

TEST(SrsRegion, ReleaseRefusesARangeBeyondTheContentAndARegionThatDoesNotVerify) {
  pool_guard g("srs-release-bad");
  const auto bytes = random_bytes(50'000, 6);
  temp_file f(bytes);
  auto s = srs_region::load(g.name, f.path);
  ASSERT_TRUE(s);
  EXPECT_EQ(srs_region::release(g.name, s->key_id(), 40'000, 20'000).error(), error::srs_mismatch);
  {  // its content changed after the load: nothing is released
    const int fd = ::open(shm_path(g.name + ".srs." + s->key_id()).c_str(), O_RDWR);
    ASSERT_GE(fd, 0);
    const std::uint8_t x = 0x5a;
    ASSERT_EQ(::pwrite(fd, &x, 1, 4096 + 7), 1);
    ::close(fd);
  }
  std::string why;
  EXPECT_EQ(srs_region::release(g.name, s->key_id(), 0, 4096, &why).error(), error::srs_mismatch);
  EXPECT_NE(why.find("does not hash"), std::string::npos) << why;
}

TEST(SrsRegion, SeveralRangesAreReleasedWithTheirHashesAndRestoredFromTheFile) {
  pool_guard g("srs-restore");
  const auto bytes = random_bytes(3'000'000, 7);
  temp_file f(bytes);
  std::string why;
  auto s = srs_region::load(g.name, f.path, &why);
  ASSERT_TRUE(s) << why;
  const std::string key = s->key_id();
  const auto before = allocated(g.name, key);
  const std::pair<std::uint64_t, std::uint64_t> coefs{10'003, 500'000};
  ASSERT_TRUE(srs_region::release(g.name, key, coefs.first, coefs.second, &why)) << why;
  // the points: two adjacent sections, after the coefficients
  const std::vector<std::pair<std::uint64_t, std::uint64_t>> points = {{900'001, 700'000}, {1'600'001, 1'000'000}};
  auto r = srs_region::release(g.name, key, points, &why);
  ASSERT_TRUE(r) << why;
  EXPECT_EQ(*r, 1'700'000u);
  EXPECT_LE(allocated(g.name, key) + 2'200'000 - 6 * 4096, before);
  auto o = srs_region::open(g.name, key);
  ASSERT_TRUE(o);
  const auto ranges = o->released();
  ASSERT_EQ(ranges.size(), 3u);
  for (const auto& x : ranges)
    EXPECT_EQ(x.hash, content_hash(std::span(bytes).subspan(x.offset, x.bytes))) << "range at " << x.offset;
  EXPECT_TRUE(o->verify());
  EXPECT_EQ(*srs_region::release(g.name, key, points), 1'700'000u);  // again: nothing new
  const std::vector<std::pair<std::uint64_t, std::uint64_t>> overlapping = {{1'000'000, 10}};
  EXPECT_EQ(srs_region::release(g.name, key, overlapping).error(), error::srs_mismatch);

  {  // a file whose points changed: nothing restored that does not hash to what was released
    auto changed = bytes;
    changed[1'600'001 + 5] ^= 1;
    temp_file g2(changed);
    const int fd = ::open(g2.path.c_str(), O_RDONLY);
    ASSERT_GE(fd, 0);
    auto bad = srs_region::restore(g.name, key, fd, "changed.zkey", &why);
    ::close(fd);
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error(), error::srs_mismatch);
    EXPECT_NE(why.find("no longer holds"), std::string::npos) << why;
    auto o2 = srs_region::open(g.name, key);
    ASSERT_TRUE(o2);
    EXPECT_TRUE(o2->verify()) << "a failed restore leaves a region that verifies";
    EXPECT_EQ(o2->released().size(), 1u) << "the coefficients and the first section came back, the changed one not";
  }
  const int fd = ::open(f.path.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  auto back = srs_region::restore(g.name, key, fd, f.path.string(), &why);
  ::close(fd);
  ASSERT_TRUE(back) << why;
  auto o3 = srs_region::open(g.name, key);
  ASSERT_TRUE(o3);
  EXPECT_TRUE(o3->released().empty());
  EXPECT_EQ(content_hash(o3->bytes()), key) << "every byte is back";
  EXPECT_TRUE(o3->verify());
}

/* The hash of what remains, computed here: each released range in its place as its offset and length
   (8 bytes each, little-endian), or, by the rule of regions written before it, as its bytes of zeros. */
std::string remains_hash(const std::vector<std::uint8_t>& bytes,
                         const std::vector<std::pair<std::uint64_t, std::uint64_t>>& ranges, bool as_zeros) {
  content_hasher h;
  std::uint64_t at = 0;
  for (const auto& [off, len] : ranges) {
    h.add(bytes.data() + at, off - at);
    if (as_zeros) {
      h.add_zeros(len);
    } else {
      std::uint8_t le[16];
      for (int i = 0; i < 8; ++i) le[i] = std::uint8_t(off >> (8 * i)), le[8 + i] = std::uint8_t(len >> (8 * i));
      h.add(le, sizeof le);
    }
    at = off + len;
  }
  h.add(bytes.data() + at, bytes.size() - at);
  return h.digest();
}

TEST(SrsRegion, WhatRemainsIsHashedWithoutItsReleasedBytesAndARegionHashedWithZerosStillVerifies) {
  pool_guard g("srs-rule");
  const auto bytes = random_bytes(2'000'000, 8);
  temp_file f(bytes);
  std::string why;
  auto s = srs_region::load(g.name, f.path, &why);
  ASSERT_TRUE(s) << why;
  const std::string key = s->key_id();
  const std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges = {{4'097, 300'000}, {1'000'000, 900'000}};
  ASSERT_TRUE(srs_region::release(g.name, key, ranges, &why)) << why;
  const std::string path = shm_path(g.name + ".srs." + key);
  const int fd = ::open(path.c_str(), O_RDWR);
  ASSERT_GE(fd, 0);
  srs_detail::srs_header h;
  ASSERT_EQ(::pread(fd, &h, sizeof h, 0), static_cast<ssize_t>(sizeof h));
  EXPECT_EQ(h.resident_rule, srs_detail::rule_skip);
  EXPECT_EQ(std::string(h.resident_hash), remains_hash(bytes, ranges, false));
  auto o = srs_region::open(g.name, key);
  ASSERT_TRUE(o);
  EXPECT_TRUE(o->verify());
  {  // a region released before the rule was recorded: its hash counts the zeros, and it verifies by that
    const std::string zeros = remains_hash(bytes, ranges, true);
    const std::uint32_t old_rule = srs_detail::rule_zeros;
    ASSERT_EQ(::pwrite(fd, zeros.data(), zeros.size(), offsetof(srs_detail::srs_header, resident_hash)),
              static_cast<ssize_t>(zeros.size()));
    ASSERT_EQ(::pwrite(fd, &old_rule, sizeof old_rule, offsetof(srs_detail::srs_header, resident_rule)),
              static_cast<ssize_t>(sizeof old_rule));
    auto old = srs_region::open(g.name, key);
    ASSERT_TRUE(old);
    EXPECT_TRUE(old->verify());
    // releasing a third range checks it by the old rule and records the new one
    ASSERT_TRUE(srs_region::release(g.name, key, 500'000, 1'000, &why)) << why;
    ASSERT_EQ(::pread(fd, &h, sizeof h, 0), static_cast<ssize_t>(sizeof h));
    EXPECT_EQ(h.resident_rule, srs_detail::rule_skip);
    EXPECT_EQ(std::string(h.resident_hash), remains_hash(bytes, {ranges[0], {500'000, 1'000}, ranges[1]}, false));
  }
  {  // a byte of what remains changed: verify and a further release refuse it
    const std::uint8_t x = bytes[1'950'000] ^ 0x40;
    ASSERT_EQ(::pwrite(fd, &x, 1, 4096 + 1'950'000), 1);
    auto bad = srs_region::open(g.name, key);
    ASSERT_TRUE(bad);
    EXPECT_EQ(bad->verify().error(), error::srs_mismatch);
    EXPECT_EQ(srs_region::release(g.name, key, 600'000, 1'000, &why).error(), error::srs_mismatch);
    EXPECT_NE(why.find("does not hash"), std::string::npos) << why;
  }
  ::close(fd);
}

TEST(SrsRegion, AHeaderWhoseReleasedRangesOverlapOrPassTheEndIsRefusedByVerifyReleaseAndRestore) {
  pool_guard g("srs-bad-ranges");
  const auto bytes = random_bytes(200'000, 9);
  temp_file f(bytes);
  std::string why;
  auto s = srs_region::load(g.name, f.path, &why);
  ASSERT_TRUE(s) << why;
  const std::string key = s->key_id();
  const std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges = {{10'000, 20'000}, {50'000, 20'000}};
  ASSERT_TRUE(srs_region::release(g.name, key, ranges, &why)) << why;
  const int fd = ::open(shm_path(g.name + ".srs." + key).c_str(), O_RDWR);
  ASSERT_GE(fd, 0);
  for (const std::uint64_t second :
       {std::uint64_t(25'000), std::uint64_t(190'000)}) {  // overlaps the first; passes the end
    const auto at = offsetof(srs_detail::srs_header, released) + sizeof(srs_detail::released_entry) +
                    offsetof(srs_detail::released_entry, offset);
    ASSERT_EQ(::pwrite(fd, &second, sizeof second, static_cast<off_t>(at)), static_cast<ssize_t>(sizeof second));
    auto o = srs_region::open(g.name, key);
    ASSERT_TRUE(o);
    EXPECT_EQ(o->verify().error(), error::srs_mismatch) << second;
    EXPECT_EQ(srs_region::release(g.name, key, 100'000, 1'000, &why).error(), error::srs_mismatch) << second;
    EXPECT_NE(why.find("overlap or lie beyond"), std::string::npos) << why;
    const int file = ::open(f.path.c_str(), O_RDONLY);
    ASSERT_GE(file, 0);
    EXPECT_EQ(srs_region::restore(g.name, key, file, "k.zkey", &why).error(), error::srs_mismatch) << second;
    ::close(file);
  }
  ::close(fd);
}

TEST(SrsRegion, ALoadThatOmitsRangesNeverHoldsThemAndRecordsTheirHashes) {
  pool_guard g("srs-omit");
  const auto bytes = random_bytes(4'000'000, 8);
  temp_file f(bytes);
  const int fd = ::open(f.path.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  const std::vector<std::pair<std::uint64_t, std::uint64_t>> omit = {{2'500'000, 1'400'000}, {100'000, 2'000'000}};
  std::string why;
  auto s = srs_region::load(g.name, fd, f.path.string(), &why, srs_origin::installed, omit);
  ::close(fd);
  ASSERT_TRUE(s) << why;
  EXPECT_EQ(s->key_id(), content_hash(bytes)) << "the key id is the whole file's hash";
  EXPECT_LE(allocated(g.name, s->key_id()), 4096 + 4'000'000 - 3'400'000 + 4 * 4096)
      << "the omitted ranges take no memory";
  const auto ranges = s->released();
  ASSERT_EQ(ranges.size(), 2u);
  EXPECT_EQ(ranges[0].offset, 100'000u);
  EXPECT_EQ(ranges[1].offset, 2'500'000u);
  for (const auto& x : ranges) EXPECT_EQ(x.hash, content_hash(std::span(bytes).subspan(x.offset, x.bytes)));
  EXPECT_TRUE(std::equal(bytes.begin() + 2'100'000, bytes.begin() + 2'500'000, s->bytes().begin() + 2'100'000));
  auto o = srs_region::open(g.name, s->key_id());
  ASSERT_TRUE(o);
  EXPECT_TRUE(o->verify());
  auto again = srs_region::load(g.name, f.path, &why);  // without omissions: the same region, as it is
  ASSERT_TRUE(again) << why;
  EXPECT_EQ(again->released_bytes(), 3'400'000u);
}

TEST(SrsRegion, TheFileARegionWasLoadedFromFindsItWithoutBeingHashedUntilTheFileChanges) {
  pool_guard g("srs-find");
  const auto bytes = random_bytes(200'000, 9);
  temp_file f(bytes), other(random_bytes(200'000, 10));
  auto s = srs_region::load(g.name, f.path);
  ASSERT_TRUE(s);
  auto find = [&](const std::filesystem::path& p) {
    const int fd = ::open(p.c_str(), O_RDONLY);
    EXPECT_GE(fd, 0);
    auto r = srs_region::find_loaded(g.name, fd);
    ::close(fd);
    return r;
  };
  auto found = find(f.path);
  ASSERT_TRUE(found);
  EXPECT_EQ(found->key_id(), s->key_id());
  EXPECT_TRUE(found->verified());
  EXPECT_EQ(find(other.path).error(), error::not_found);
  // written again (the same bytes even): its mtime and ctime moved, so it is hashed again by a load
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  std::ofstream(f.path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  EXPECT_EQ(find(f.path).error(), error::not_found);
  ASSERT_TRUE(srs_region::load(g.name, f.path));  // the same content: the same region, the new identity recorded
  EXPECT_TRUE(find(f.path));
}

TEST(SrsRegion, ACreateWhoseFillFailsLeavesNothing) {
  pool_guard g("srs-create-fail");
  EXPECT_THROW((void)srs_region::create(g.name, 4096,
                                        [](std::span<std::uint8_t> out) {
                                          out[0] = 1;
                                          throw std::runtime_error("setup failed");
                                        }),
               std::runtime_error);
  EXPECT_TRUE(list_srs(g.name).empty());
  std::string why;
  auto huge = srs_region::create(
      g.name, std::uint64_t{1} << 50, [](std::span<std::uint8_t>) { FAIL(); }, &why);
  ASSERT_FALSE(huge);
  EXPECT_EQ(huge.error(), error::no_space);
  EXPECT_NE(why.find(shm_dir() + " has"), std::string::npos) << why;
}

TEST(SrsRegion, ACorruptHeaderIsRefusedNamingTheField) {
  pool_guard g("srs-bad");
  auto bytes = random_bytes(3000, 3);
  temp_file f(bytes);
  std::string key = srs_region::load(g.name, f.path)->key_id();
  int fd = ::open((shm_path(g.name + ".srs." + key)).c_str(), O_RDWR);
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

std::string object_path(const std::string& pool, const std::string& key) { return shm_path(pool + ".srs." + key); }

unsigned mode_of(const std::string& path) {
  struct stat st {};
  EXPECT_EQ(::lstat(path.c_str(), &st), 0) << path;
  return st.st_mode & 07777;
}

/* Runs f in a forked child; its return value is the child's exit status. */
pid_t spawn(const std::function<int()>& f) {
  pid_t pid = ::fork();
  if (pid == 0) ::_exit(f());
  return pid;
}

int wait_for(pid_t pid) {
  int st = 0;
  while (::waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  return st;
}

bool eventually(const std::function<bool()>& f) {
  for (int i = 0; i < 500; ++i) {
    if (f()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

TEST(SrsAccess, ARegionIs0600AndTakesThePoolsGroupAndMode) {
  auto bytes = random_bytes(5000, 10);
  temp_file f(bytes);
  {
    pool_guard g("srs-mode");  // no pool: the creator's group, 0600
    auto s = srs_region::load(g.name, f.path);
    ASSERT_TRUE(s);
    EXPECT_EQ(mode_of(object_path(g.name, s->key_id())), 0600u);
  }
  const struct group* grp = ::getgrnam("nogroup");
  if (!grp) grp = ::getgrnam("daemon");
  if (!grp || ::geteuid() != 0) GTEST_SKIP() << "needs root and a nogroup or daemon group";
  pool_guard g("srs-group");
  std::string why;
  ASSERT_TRUE(region::create(g.small().with_group(grp->gr_name), &why)) << why;
  auto s = srs_region::load(g.name, f.path, &why);
  ASSERT_TRUE(s) << why;
  struct stat st {};
  ASSERT_EQ(::stat(object_path(g.name, s->key_id()).c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0660u);
  EXPECT_EQ(st.st_gid, grp->gr_gid);
  EXPECT_TRUE(srs_region::open(g.name, s->key_id()));
}

TEST(SrsRegion, LoadsFromADescriptorTheCallerOpened) {
  pool_guard g("srs-fd");
  auto bytes = random_bytes(70'000, 11);
  temp_file f(bytes);
  int fd = ::open(f.path.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  std::string why;
  auto s = srs_region::load(g.name, fd, "the client's key", &why);
  ASSERT_TRUE(s) << why;
  EXPECT_EQ(s->key_id(), content_hash(bytes));
  EXPECT_TRUE(s->verified());
  EXPECT_TRUE(std::equal(bytes.begin(), bytes.end(), s->bytes().begin()));
  EXPECT_EQ(::fcntl(fd, F_GETFD), FD_CLOEXEC);  // still the caller's
  ::close(fd);
  auto o = srs_region::open(g.name, s->key_id());
  ASSERT_TRUE(o);
  EXPECT_FALSE(o->verified());
  EXPECT_TRUE(o->verify());
  EXPECT_TRUE(o->verified());
}

TEST(SrsCrash, ALoaderKilledMidCopyLeavesARegionTheNextLoadReclaims) {
  pool_guard g("srs-kill");
  auto bytes = random_bytes(3 * (1 << 20) + 123, 12);  // four copy chunks
  temp_file f(bytes);
  const std::string key = content_hash(bytes);
  pid_t pid = spawn([&] {
    arm_failpoint("srs.load.copy", 2);
    (void)srs_region::load(g.name, f.path);
    return 0;
  });
  int st = wait_for(pid);
  ASSERT_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL) << "the loader was not killed at srs.load.copy";
  ASSERT_EQ(list_srs(g.name), std::vector<std::string>{key});
  std::string why;
  auto o = srs_region::open(g.name, key, &why);
  ASSERT_FALSE(o);
  EXPECT_EQ(o.error(), error::srs_abandoned);
  EXPECT_NE(why.find("loader that died"), std::string::npos) << why;

  auto s = srs_region::load(g.name, f.path, &why);
  ASSERT_TRUE(s) << why;
  EXPECT_EQ(s->key_id(), key);
  ASSERT_EQ(s->bytes().size(), bytes.size());
  EXPECT_TRUE(std::equal(bytes.begin(), bytes.end(), s->bytes().begin()));
  auto again = srs_region::open(g.name, key);
  ASSERT_TRUE(again);
  EXPECT_TRUE(again->verify());
  EXPECT_EQ(list_srs(g.name).size(), 1u);
}

TEST(SrsCrash, ALiveLoaderIsReportedAsLoadingAndReclaimedOnceKilled) {
  pool_guard g("srs-stall");
  auto bytes = random_bytes(2 * (1 << 20), 13);
  temp_file f(bytes);
  const std::string key = content_hash(bytes);
  pid_t pid = spawn([&] {
    arm_failpoint("srs.load.copy", 1, failpoint_action::stall);
    (void)srs_region::load(g.name, f.path);
    return 0;
  });
  ASSERT_TRUE(eventually([&] { return !list_srs(g.name).empty(); }));
  std::string why;
  auto o = srs_region::open(g.name, key, &why);
  ASSERT_FALSE(o);
  EXPECT_EQ(o.error(), error::being_created) << why;  // the stalled loader still holds its lock
  ::kill(pid, SIGKILL);
  wait_for(pid);
  o = srs_region::open(g.name, key, &why);
  ASSERT_FALSE(o);
  EXPECT_EQ(o.error(), error::srs_abandoned) << why;
  auto s = srs_region::load(g.name, f.path, &why);
  ASSERT_TRUE(s) << why;
  EXPECT_TRUE(std::equal(bytes.begin(), bytes.end(), s->bytes().begin()));
}

TEST(SrsCrash, ConcurrentLoadersOfOneKeyAllEndWithTheSameValidRegion) {
  pool_guard g("srs-race");
  auto bytes = random_bytes(6 * (1 << 20), 14);
  temp_file f(bytes);
  const std::string key = content_hash(bytes);
  int go[2];
  ASSERT_EQ(::pipe(go), 0);
  std::vector<pid_t> pids;
  for (int i = 0; i < 3; ++i)
    pids.push_back(spawn([&] {
      char c;
      ::close(go[1]);
      if (::read(go[0], &c, 1) != 0) return 3;  // all start when the pipe closes
      auto s = srs_region::load(g.name, f.path);
      if (!s) return 1;
      return s->key_id() == key && s->verify() && s->bytes().size() == bytes.size() ? 0 : 2;
    }));
  ::close(go[0]);
  ::close(go[1]);
  for (pid_t p : pids) {
    int st = wait_for(p);
    EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0) << "a loader failed: status " << st;
  }
  EXPECT_EQ(list_srs(g.name), std::vector<std::string>{key});
  auto o = srs_region::open(g.name, key);
  ASSERT_TRUE(o);
  EXPECT_TRUE(o->verify());
  EXPECT_TRUE(std::equal(bytes.begin(), bytes.end(), o->bytes().begin()));
}

}  // namespace
}  // namespace cuzk::shm
