// host_copy = drop in the key cache, no GPU needed: a region loaded from a
// key file without its point sections, the sections read back from the file
// (checked against what the region recorded), the points released from a
// region that held them, and keep bringing them back from the file.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "circuits/registry.hpp"
#include "groth16/native.hpp"
#include "io/zkey.hpp"
#include "job/key_cache.hpp"
#include "job/region_points.hpp"
#include "pool_guard.hpp"
#include "run.hpp"
#include "shm/shm_dir.hpp"
#include "shm/srs_region.hpp"

namespace cuzk::job {
namespace {

using test::pool_guard;

std::uint64_t allocated(const std::string& pool, const std::string& id) {
  struct stat st {};
  EXPECT_EQ(::stat(shm::shm_path(pool + ".srs." + id).c_str(), &st), 0);
  return static_cast<std::uint64_t>(st.st_blocks) * 512;
}

struct key_file {
  test::temp_dir dir;
  std::filesystem::path path;
  std::vector<std::uint8_t> bytes;
  io::zkey_shape shape;
  key_file() {
    auto c = circuits::make_circuit("chain:size=3000");
    bytes = io::write_zkey(groth16::setup_circuit(*c, groth16::basic_toxic_waste<curves::bls12_381>::random()));
    path = dir.write("k.zkey", bytes);
    shape = io::read_zkey_shape(bytes);
  }
  std::uint64_t points() const {
    std::uint64_t n = 0;
    for (const auto& [off, len] : shape.points) n += len;
    return n;
  }
};

/* Reads one section through the key's points source, as the GPU upload does. */
std::vector<std::uint8_t> read_section(const groth16::points_source& src, std::span<const std::uint8_t> section) {
  auto r = src.open(section);
  std::vector<std::uint8_t> out(section.size());
  std::size_t at = 0;
  while (std::size_t n = r->next(std::span(out).subspan(at, std::min<std::size_t>(1000, out.size() - at)))) at += n;
  r->finish();
  out.resize(at);
  return out;
}

template <class F>
void with_mapped(const any_key& pk, F&& f) {
  pk.visit([&](const auto& k) { f(k.mapped); });
}

TEST(KeyCacheHostCopy, ADroppedKeysRegionNeverHoldsItsPointsAndTheyAreReadFromTheFile) {
  pool_guard g("hc-drop");
  key_file k;
  key_cache cache(g.name);
  cache.decode_points(false);
  const std::string id = cache.load(k.path, host_copy::drop);
  auto region = shm::srs_region::open(g.name, id);
  ASSERT_TRUE(region);
  EXPECT_EQ(id, shm::content_hash(k.bytes)) << "the key id stays the file's hash";
  EXPECT_EQ(region->released_bytes(), k.points());
  EXPECT_LE(allocated(g.name, id), shm::srs_region_bytes(k.bytes.size()) - k.points() + 10 * 4096);
  EXPECT_TRUE(region->verify());
  auto pk = cache.get(id);
  with_mapped(pk, [&](const groth16::mapped_bases& m) {
    ASSERT_TRUE(m.source);
    const std::span<const std::uint8_t> secs[] = {m.a, m.b1, m.b2, m.c, m.h};  // sections 5 .. 9
    for (std::size_t i = 0; i < 5; ++i) {
      EXPECT_TRUE(m.source->released(secs[i]));
      const auto [off, len] = k.shape.points[i];
      ASSERT_EQ(secs[i].size(), len);
      EXPECT_EQ(read_section(*m.source, secs[i]),
                std::vector<std::uint8_t>(k.bytes.begin() + std::ptrdiff_t(off),
                                          k.bytes.begin() + std::ptrdiff_t(off + len)));
    }
  });
}

TEST(KeyCacheHostCopy, AFileThatChangedAfterTheLoadIsRefusedWhenItsPointsAreRead) {
  pool_guard g("hc-changed");
  key_file k;
  key_cache cache(g.name);
  cache.decode_points(false);
  const std::string id = cache.load(k.path, host_copy::drop);
  auto pk = cache.get(id);
  {  // one byte of the H section changes in place
    std::fstream f(k.path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(std::streamoff(k.shape.points[4].first + 17));
    const char x = static_cast<char>(k.bytes[k.shape.points[4].first + 17] ^ 1);
    f.write(&x, 1);
  }
  with_mapped(pk, [&](const groth16::mapped_bases& m) {
    try {
      (void)read_section(*m.source, m.h);
      ADD_FAILURE() << "a changed key file was read as the key's points";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("changed since its key was loaded"), std::string::npos) << e.what();
    }
    EXPECT_NO_THROW((void)read_section(*m.source, m.a)) << "the other sections are intact";
  });
}

TEST(KeyCacheHostCopy, PointsLeaveARegionThatHeldThemAndKeepBringsThemBack) {
  pool_guard g("hc-release");
  key_file k;
  std::string id;
  {
    key_cache cache(g.name);
    cache.decode_points(false);
    id = cache.load(k.path, host_copy::keep);
    EXPECT_EQ(shm::srs_region::open(g.name, id)->released_bytes(), 0u);
    EXPECT_EQ(cache.release_points(id), k.points());
    EXPECT_EQ(cache.release_points(id), k.points()) << "released already: nothing more";
  }
  EXPECT_EQ(shm::srs_region::open(g.name, id)->released_bytes(), k.points());
  {  // a key id alone (no file known): its points cannot be read, and it says why
    key_cache cache(g.name);
    cache.decode_points(false);
    auto pk = cache.get(id);
    with_mapped(pk, [&](const groth16::mapped_bases& m) {
      EXPECT_TRUE(m.source->released(m.h));
      try {
        (void)m.source->open(m.h);
        ADD_FAILURE() << "points read with no file";
      } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("no file of the key is known"), std::string::npos) << e.what();
      }
    });
  }
  {  // the operator switched to keep: the points come back from the file
    key_cache cache(g.name);
    cache.decode_points(false);
    EXPECT_EQ(cache.load(k.path, host_copy::keep), id);
    auto region = shm::srs_region::open(g.name, id);
    EXPECT_EQ(region->released_bytes(), 0u);
    EXPECT_EQ(shm::content_hash(region->bytes()), id);
  }
}

}  // namespace
}  // namespace cuzk::job
