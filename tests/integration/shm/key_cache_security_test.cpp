// Planted SRS regions against the key cache: a POOL.srs.ID whose content is
// another key, or one owned by another user, is never parsed or used.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "circuits/registry.hpp"
#include "groth16/native.hpp"
#include "io/zkey.hpp"
#include "job/key_cache.hpp"
#include "job/spec.hpp"
#include "pool_guard.hpp"
#include "run.hpp"
#include "shm/shm_dir.hpp"
#include "shm/srs_region.hpp"

namespace cuzk::job {
namespace {

using test::pool_guard;

/* Two keys of one circuit (same size, different toxic waste) as files. */
struct two_keys {
  test::temp_dir dir;
  std::filesystem::path a, b;
  std::vector<std::uint8_t> a_bytes, b_bytes;
  two_keys() {
    auto c = circuits::make_circuit("chain:size=8");
    // unmarked (a key from the circuit's .r1cs): its coefficients are parsed from the region too, so a parsed
    // key writes back to the very bytes (a native key's are never read from a region)
    auto key = [&] {
      auto pk = groth16::setup_circuit(*c, groth16::basic_toxic_waste<curves::bls12_381>::random());
      pk.native = false;
      return io::write_zkey(pk);
    };
    a_bytes = key();
    b_bytes = key();
    a = dir.write("a.zkey", a_bytes);
    b = dir.write("b.zkey", b_bytes);
  }
};

std::string srs_path(const std::string& pool, const std::string& id) { return shm::shm_path(pool + ".srs." + id); }

/* Loads the key in another process (cuzk-shm load-srs), so that this process
   has not seen the region yet. */
std::string load_elsewhere(const std::string& pool, const std::filesystem::path& key) {
  auto c = test::run(std::string(CUZK_SHM_BIN) + " create --name " + pool + " --slots 1x1000 --threads 1");
  EXPECT_EQ(c.rc, 0) << c.err;
  auto l = test::run(std::string(CUZK_SHM_BIN) + " load-srs --name " + pool + " --zkey " + key.string());
  EXPECT_EQ(l.rc, 0) << l.err;
  return l.out.substr(0, 32);
}

std::string job_error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const job_error& e) {
    return e.what();
  }
  return "";
}

/* Key b's bytes written over the content of key a's region (its header kept). */
void plant(const std::string& pool, const std::string& id, const std::vector<std::uint8_t>& bytes) {
  int fd = ::open(srs_path(pool, id).c_str(), O_RDWR);
  ASSERT_GE(fd, 0);
  const std::size_t n = 4096 + bytes.size();
  auto* p = static_cast<std::uint8_t*>(::mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0));
  ::close(fd);
  ASSERT_NE(p, MAP_FAILED);
  std::copy(bytes.begin(), bytes.end(), p + 4096);
  ::munmap(p, n);
}

TEST(KeyCacheSecurity, ARegionWhoseContentIsAnotherKeyIsRefusedBeforeParsing) {
  two_keys k;
  ASSERT_EQ(k.a_bytes.size(), k.b_bytes.size());
  ASSERT_NE(k.a_bytes, k.b_bytes);
  pool_guard g("sec-planted");
  const std::string id = load_elsewhere(g.name, k.a);
  ASSERT_EQ(id, shm::content_hash(k.a_bytes));
  ASSERT_NO_FATAL_FAILURE(plant(g.name, id, k.b_bytes));  // a correct header over key b's bytes
  key_cache cache(g.name);
  const std::string err = job_error_of([&] { (void)cache.get(id); });
  EXPECT_NE(err.find("SRS region " + id + " does not hash to its key id"), std::string::npos)
      << (err.empty() ? "key b was accepted as key a" : err);
  const std::string err2 = job_error_of([&] { (void)cache.load(k.a); });
  EXPECT_NE(err2.find("does not hash to its key id"), std::string::npos) << (err2.empty() ? "accepted" : err2);
}

/* A key parsed without its check (a server before it serves) is refused by
   verify() and by every later get() that proves with it. */
TEST(KeyCacheSecurity, AKeyParsedUncheckedIsRefusedByItsLaterCheck) {
  two_keys k;
  pool_guard g("sec-unchecked");
  const std::string id = load_elsewhere(g.name, k.a);
  ASSERT_NO_FATAL_FAILURE(plant(g.name, id, k.b_bytes));
  key_cache cache(g.name);
  EXPECT_TRUE(cache.get(id, false));  // parsed, not checked
  EXPECT_NE(job_error_of([&] { cache.verify(id); }).find("does not hash to its key id"), std::string::npos);
  EXPECT_NE(job_error_of([&] { (void)cache.get(id); }).find("does not hash to its key id"), std::string::npos);
  pool_guard good("sec-checked");
  const std::string ok = load_elsewhere(good.name, k.a);
  key_cache c2(good.name);
  ASSERT_TRUE(c2.get(ok, false));
  EXPECT_EQ(job_error_of([&] { c2.verify(ok); }), "");
  EXPECT_TRUE(c2.get(ok));
}

TEST(KeyCacheSecurity, ARegionOwnedByAnotherUserIsRefusedEvenWithTheRightContent) {
  if (::geteuid() != 0) GTEST_SKIP() << "planting a file owned by another user needs root";
  two_keys k;
  pool_guard g("sec-owner"), source("sec-owner-src");
  const std::string id = load_elsewhere(source.name, k.a);
  auto c = test::run(std::string(CUZK_SHM_BIN) + " create --name " + g.name + " --slots 1x1000 --threads 1");
  ASSERT_EQ(c.rc, 0) << c.err;
  // nobody's copy of a valid region: nobody could rewrite it after it was checked.
  std::filesystem::copy_file(srs_path(source.name, id), srs_path(g.name, id));
  ASSERT_EQ(::chown(srs_path(g.name, id).c_str(), 65534, 65534), 0);
  ASSERT_EQ(::chmod(srs_path(g.name, id).c_str(), 0600), 0);
  key_cache cache(g.name);
  const std::string err = job_error_of([&] { (void)cache.get(id); });
  EXPECT_NE(err.find("is owned by uid 65534 gid 65534 with mode 0600"), std::string::npos)
      << (err.empty() ? "nobody's region was used" : err);
  const std::string err2 = job_error_of([&] { (void)cache.load(k.a); });
  EXPECT_NE(err2.find("is owned by uid 65534"), std::string::npos) << (err2.empty() ? "accepted" : err2);
}

TEST(KeyCacheSecurity, AKeyFileDescriptorThatIsAFifoIsAJobError) {
  pool_guard g("sec-kcfifo");
  test::temp_dir dir;
  const auto fifo = dir.path / "k.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  int fd = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  key_cache cache(g.name);
  const std::string err = job_error_of([&] { (void)cache.load(fd, "client.zkey"); });
  ::close(fd);
  EXPECT_NE(err.find("key file client.zkey is a FIFO, not a regular file"), std::string::npos) << err;
}

TEST(KeyCacheSecurity, AGenuineKeyLoadedElsewhereIsVerifiedAndUsed) {
  two_keys k;
  pool_guard g("sec-genuine");
  const std::string id = load_elsewhere(g.name, k.a);
  key_cache cache(g.name);
  auto pk = cache.get(id);
  ASSERT_TRUE(pk);
  EXPECT_EQ(io::write_zkey(*pk.as<curves::bls12_381>()), k.a_bytes);
  EXPECT_EQ(cache.load(k.a), id);
}

}  // namespace
}  // namespace cuzk::job
