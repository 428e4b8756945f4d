#include "shm/region.hpp"

#include <fcntl.h>
#include <grp.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cstring>
#include <fstream>

#include "pool_guard.hpp"
#include "seed.hpp"
#include "shm/lease.hpp"
#include "shm/shm_dir.hpp"

namespace cuzk::shm {
namespace {

using test::pool_guard;

TEST(ParseSlotClass, ReadsCountConstraintsAndWitness) {
  auto c = parse_slot_class("4x65536");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->count, 4u);
  EXPECT_EQ(c->max_constraints, 65536u);
  EXPECT_EQ(c->witness, 0u);
  auto d = parse_slot_class("16x2^20:w=70000");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->count, 16u);
  EXPECT_EQ(d->max_constraints, 1u << 20);
  EXPECT_EQ(d->witness, 70000u);
}

TEST(ParseSlotClass, RefusesMalformedText) {
  for (const char* bad :
       {"", "4", "x65536", "4x", "0x16", "4x0", "4x65536:v=3", "4x65536:w=", "ax5", "4x3^2", "4x65536junk"})
    EXPECT_FALSE(parse_slot_class(bad)) << bad;
}

TEST(Region, CreateLaysOutPayloadsOnTwoMiBBoundaries) {
  pool_guard g("layout");
  auto r = region::create(g.small());
  ASSERT_TRUE(r);
  const region_header& h = r->header();
  EXPECT_EQ(h.magic.load(), region_magic);
  EXPECT_EQ(h.version, layout_version);
  EXPECT_EQ(h.n_slots, 3u);
  EXPECT_EQ(h.n_classes, 2u);
  EXPECT_EQ(h.total_bytes, r->size());
  EXPECT_EQ(h.classes[0].domain, 1024u);  // 1000 constraints → next power of two
  EXPECT_EQ(h.classes[0].witness, 1024u);
  EXPECT_EQ(h.classes[1].domain, 4096u);
  EXPECT_EQ(h.classes[1].witness, 5000u);
  EXPECT_EQ(h.payload_offset % payload_alignment, 0u);
  for (std::uint32_t c = 0; c < h.n_classes; ++c) {
    EXPECT_EQ(h.classes[c].payload_offset % payload_alignment, 0u);
    EXPECT_EQ(h.classes[c].slot_bytes % payload_alignment, 0u);
    EXPECT_GE(h.classes[c].slot_bytes, (3 * h.classes[c].domain + h.classes[c].witness) * 32);
  }
  EXPECT_EQ(h.total_bytes % payload_alignment, 0u);
}

TEST(Region, ClassesAreSortedSmallestFirst) {
  pool_guard g("sorted");
  auto r = region::create(region_config{}.with_name(g.name).with_slots({1, 1 << 14, 0}).with_slots({3, 100, 0}));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->header().classes[0].count, 3u);
  EXPECT_EQ(r->header().classes[0].domain, 128u);
  EXPECT_EQ(r->header().classes[1].domain, 1u << 14);
}

TEST(Region, OpenSeesWhatCreateWrote) {
  pool_guard g("open");
  auto r = region::create(g.small());
  ASSERT_TRUE(r);
  r->base()[r->header().payload_offset + 5] = 0x5a;
  auto o = region::open(g.where());
  ASSERT_TRUE(o);
  EXPECT_EQ(o->header().layout_hash, r->header().layout_hash);
  EXPECT_EQ(o->base()[o->header().payload_offset + 5], 0x5a);
}

TEST(Region, CreatingOverAnExistingRegionFailsAndSaysTheLayoutDiffers) {
  pool_guard g("exists");
  auto r = region::create(g.small());
  ASSERT_TRUE(r);
  std::string why;
  auto same = region::create(g.small(), &why);
  ASSERT_FALSE(same);
  EXPECT_EQ(same.error(), error::already_exists);
  EXPECT_NE(why.find("already exists (same layout"), std::string::npos) << why;
  auto other = region::create(g.small().with_slots({1, 1 << 16, 0}), &why);
  ASSERT_FALSE(other);
  EXPECT_EQ(other.error(), error::already_exists);
  EXPECT_NE(why.find("different layout"), std::string::npos) << why;
  EXPECT_TRUE(region::open(g.where()));  // untouched
}

TEST(Region, OpeningAMissingRegionIsNotFound) {
  pool_guard g("missing");
  std::string why;
  auto r = region::open(g.where(), &why);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error(), error::not_found);
  EXPECT_NE(why.find(g.name), std::string::npos);
}

TEST(Region, InvalidConfigurationsAreRefused) {
  pool_guard g("badcfg");
  EXPECT_EQ(region::create(region_config{}.with_name(g.name)).error(), error::bad_config);  // no classes
  EXPECT_EQ(region::create(region_config{}.with_name("a/b").with_slots({1, 16, 0})).error(), error::bad_config);
  EXPECT_EQ(region::create(g.small().with_leases(0)).error(), error::bad_config);
  EXPECT_EQ(region::create(g.small().with_leases(max_leases + 1)).error(), error::bad_config);
  EXPECT_EQ(region::create(g.small().with_jobs(0)).error(), error::bad_config);
  region_config nine = region_config{}.with_name(g.name);
  for (int i = 0; i < 9; ++i) nine.with_slots({1, 16, 0});
  EXPECT_EQ(region::create(nine).error(), error::bad_config);
  EXPECT_EQ(region::create(region_config{}.with_name(g.name).with_hugepages("/tmp").with_slots({1, 16, 0})).error(),
            error::bad_config);  // not hugetlbfs
}

TEST(Region, ARegionLargerThanFreeShmFailsAtCreationWithNoSpace) {
  pool_guard g("nospace");
  struct statvfs sv {};
  ASSERT_EQ(::statvfs(shm_dir().c_str(), &sv), 0);
  std::uint64_t avail = static_cast<std::uint64_t>(sv.f_bavail) * sv.f_frsize;
  // One slot whose a, b, c and z (4 × domain × 32 B) exceed the free space.
  std::uint64_t domain = 1;
  while (4 * domain * 32 <= avail) domain <<= 1;
  std::string why;
  auto r = region::create(region_config{}.with_name(g.name).with_slots({1, domain, 0}), &why);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error(), error::no_space);
  EXPECT_NE(why.find(shm_dir()), std::string::npos) << why;
  EXPECT_NE(why.find("free"), std::string::npos) << why;
  EXPECT_EQ(::access((shm_path(g.name)).c_str(), F_OK), -1);  // nothing left behind
  EXPECT_EQ(::access((shm_path(g.name + ".lock")).c_str(), F_OK), -1);
}

/* Rewrites one header field through a second mapping, then opens. */
class CorruptHeader : public ::testing::Test {
 protected:
  pool_guard g{"corrupt"};
  std::string why;
  void SetUp() override { ASSERT_TRUE(region::create(g.small())); }
  error open_error() {
    auto r = region::open(g.where(), &why);
    EXPECT_FALSE(r);
    return r ? error::os_error : r.error();
  }
  region_header& raw() {
    if (!map_) map_ = std::make_unique<region>(region::open(g.where()).value());
    return map_->header();
  }
  std::unique_ptr<region> map_;
};

TEST_F(CorruptHeader, WrongMagicIsRefusedNamingMagic) {
  raw().magic.store(0x1234);
  EXPECT_EQ(open_error(), error::bad_magic);
  EXPECT_NE(why.find("'magic'"), std::string::npos) << why;
}

TEST_F(CorruptHeader, UnpublishedMagicIsBeingCreated) {
  raw().magic.store(0);
  EXPECT_EQ(open_error(), error::being_created);
  EXPECT_NE(why.find("magic"), std::string::npos) << why;
}

TEST_F(CorruptHeader, OtherVersionIsRefusedNamingVersion) {
  raw().version = layout_version + 1;
  EXPECT_EQ(open_error(), error::bad_version);
  EXPECT_NE(why.find("'version' is " + std::to_string(layout_version + 1)), std::string::npos) << why;
}

TEST_F(CorruptHeader, WrongTotalSizeIsRefusedNamingTotalBytes) {
  raw().total_bytes += 4096;
  EXPECT_EQ(open_error(), error::bad_size);
  EXPECT_NE(why.find("'total_bytes'"), std::string::npos) << why;
}

TEST_F(CorruptHeader, ChangedSlotClassIsRefusedNamingTheField) {
  raw().classes[0].count = 3;  // implies other offsets
  EXPECT_EQ(open_error(), error::bad_layout_hash);
  EXPECT_NE(why.find("field '"), std::string::npos) << why;
}

TEST_F(CorruptHeader, ChangedLayoutHashIsRefusedNamingLayoutHash) {
  raw().layout_hash ^= 1;
  EXPECT_EQ(open_error(), error::bad_layout_hash);
  EXPECT_NE(why.find("'layout_hash'"), std::string::npos) << why;
}

TEST_F(CorruptHeader, AFileGrownBehindTheHeadersBackIsRefused) {
  int fd = ::open((shm_path(g.name)).c_str(), O_RDWR);
  ASSERT_GE(fd, 0);
  struct stat st {};
  ::fstat(fd, &st);
  ASSERT_EQ(::ftruncate(fd, st.st_size + 8192), 0);
  ::close(fd);
  EXPECT_EQ(open_error(), error::bad_size);
  EXPECT_NE(why.find("'total_bytes'"), std::string::npos) << why;
}

TEST(Region, DestroyRefusesWhileALeaseIsLiveUnlessForced) {
  pool_guard g("destroy");
  auto r = region::create(g.small());
  ASSERT_TRUE(r);
  {
    auto l = lease::take(*r, role::worker, "worker@1");
    ASSERT_TRUE(l);
    std::string why;
    auto d = region::destroy(g.where(), false, &why);
    ASSERT_FALSE(d);
    EXPECT_EQ(d.error(), error::live_leases);
    EXPECT_NE(why.find("worker@1"), std::string::npos) << why;
  }
  EXPECT_TRUE(region::destroy(g.where(), false));
  EXPECT_EQ(region::open(g.where()).error(), error::not_found);
  EXPECT_EQ(region::destroy(g.where(), false).error(), error::not_found);
}

TEST(Region, ForcedDestroyRemovesAPoolInUse) {
  pool_guard g("force");
  auto r = region::create(g.small());
  ASSERT_TRUE(r);
  auto l = lease::take(*r, role::server, "gpu-server");
  ASSERT_TRUE(l);
  EXPECT_EQ(region::destroy(g.where(), false).error(), error::live_leases);
  EXPECT_TRUE(region::destroy(g.where(), true));
  EXPECT_EQ(region::open(g.where()).error(), error::not_found);
  // The mapping this process holds stays valid until it goes.
  EXPECT_EQ(r->header().magic.load(), region_magic);
}

TEST(Region, PayloadChunksCoverEverySlotAndSplitAtSlotBoundaries) {
  pool_guard g("chunks");
  auto r = region::create(g.small());
  ASSERT_TRUE(r);
  const region_header& h = r->header();
  auto whole = r->payload_chunks(~0ULL);
  ASSERT_EQ(whole.size(), 1u);
  EXPECT_EQ(whole[0].data(), r->base() + h.payload_offset);
  EXPECT_EQ(whole[0].size(), h.total_bytes - h.payload_offset);
  auto one = r->payload_chunks(h.classes[0].slot_bytes);  // every slot its own chunk
  ASSERT_EQ(one.size(), 3u);
  std::uint64_t sum = 0;
  for (auto c : one) sum += c.size();
  EXPECT_EQ(sum, h.total_bytes - h.payload_offset);
}

struct stat_of {
  struct stat st {};
  explicit stat_of(const std::string& path) { EXPECT_EQ(::lstat(path.c_str(), &st), 0) << path; }
  unsigned mode() const { return st.st_mode & 07777; }
};

/* A group every system has, other than the test process's. */
gid_t other_group(std::string* name) {
  for (const char* n : {"nogroup", "daemon", "bin", "sys"})
    if (const struct group* g = ::getgrnam(n); g && g->gr_gid != ::getegid()) {
      *name = n;
      return g->gr_gid;
    }
  return static_cast<gid_t>(-1);
}

struct umask_scope {
  mode_t old;
  explicit umask_scope(mode_t m) : old(::umask(m)) {}
  ~umask_scope() { ::umask(old); }
};

TEST(RegionAccess, ThePoolAndItsLockFileAre0600WhateverTheUmask) {
  for (mode_t mask : {mode_t{0}, mode_t{022}, mode_t{077}}) {
    pool_guard g("mode");
    umask_scope u(mask);
    ASSERT_TRUE(region::create(g.small()));
    stat_of pool(shm_path(g.name)), lock(shm_path(g.name + ".lock"));
    EXPECT_EQ(pool.mode(), 0600u) << "umask " << mask;
    EXPECT_EQ(lock.mode(), 0600u) << "umask " << mask;
    EXPECT_EQ(pool.st.st_uid, ::geteuid());
    EXPECT_TRUE(region::open(g.where()));
  }
}

TEST(RegionAccess, WithAGroupThePoolAndItsLockFileAre0660InThatGroup) {
  std::string name;
  gid_t gid = other_group(&name);
  if (gid == static_cast<gid_t>(-1)) GTEST_SKIP() << "no system group other than the process's";
  if (::geteuid() != 0) GTEST_SKIP() << "giving a file a group the process is not in needs root";
  pool_guard g("group");
  umask_scope u(077);
  std::string why;
  ASSERT_TRUE(region::create(g.small().with_group(name), &why)) << why;
  for (const std::string& path : {shm_path(g.name), shm_path(g.name + ".lock")}) {
    stat_of s(path);
    EXPECT_EQ(s.mode(), 0660u) << path;
    EXPECT_EQ(s.st.st_gid, gid) << path;
  }
  EXPECT_TRUE(region::open(g.where()));
}

TEST(RegionAccess, AnUnknownGroupIsRefusedByName) {
  pool_guard g("nogroup");
  std::string why;
  auto r = region::create(g.small().with_group("cuzk-no-such-group-" + std::to_string(::getpid())), &why);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error(), error::bad_config);
  EXPECT_NE(why.find("group 'cuzk-no-such-group-"), std::string::npos) << why;
  EXPECT_NE(why.find("does not exist"), std::string::npos) << why;
  EXPECT_EQ(::access((shm_path(g.name)).c_str(), F_OK), -1);
  EXPECT_EQ(::access((shm_path(g.name + ".lock")).c_str(), F_OK), -1);
}

TEST(Region, HugePageBackingWhenAHugetlbfsIsMounted) {
  std::ifstream mounts("/proc/mounts");
  std::string dev, dir, type, rest;
  std::string huge;
  while (mounts >> dev >> dir >> type && std::getline(mounts, rest))
    if (type == "hugetlbfs") huge = dir;
  if (huge.empty() || ::access(huge.c_str(), W_OK) != 0) GTEST_SKIP() << "no writable hugetlbfs mount";
  pool_guard g("huge");
  std::string why;
  auto r = region::create(g.small().with_hugepages(huge), &why);
  if (!r && r.error() == error::no_space) GTEST_SKIP() << "no free huge pages: " << why;
  ASSERT_TRUE(r) << why;
  EXPECT_EQ(r->header().hugepages, 1u);
  EXPECT_TRUE(region::open(region_location{g.name, huge}));
  EXPECT_TRUE(region::destroy(region_location{g.name, huge}, true));
}

}  // namespace
}  // namespace cuzk::shm
