// The .r1cs, .wtns and .zkey readers against hostile files (label security):
// a refusal quotes none of the file, huge declarations are refused before any
// allocation, a FIFO or a sparse terabyte is refused at once, and a file
// truncated by another process while it is read gives a clear error, never
// a SIGBUS.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <new>
#include <thread>

#include "file_bytes.hpp"
#include "groth16/setup.hpp"
#include "io/zkey.hpp"
#include "r1cs/r1cs_file.hpp"
#include "r1cs/wtns_file.hpp"
#include "seed.hpp"

// The largest single allocation while `tracking` is set.
namespace {
std::atomic<bool> tracking{false};
std::atomic<std::size_t> largest{0};
}  // namespace

[[gnu::noinline]] void* operator new(std::size_t n) {
  if (tracking.load(std::memory_order_relaxed)) {
    std::size_t cur = largest.load();
    while (n > cur && !largest.compare_exchange_weak(cur, n)) {
    }
  }
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
[[gnu::noinline]] void operator delete(void* p) noexcept { std::free(p); }
[[gnu::noinline]] void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace cuzk::r1cs {
namespace {

namespace fs = std::filesystem;
using fixtures::format_error_of;

enum class kind { r1cs, wtns, zkey };
constexpr kind kinds[] = {kind::r1cs, kind::wtns, kind::zkey};

std::string name(kind k) { return k == kind::r1cs ? "r1cs" : k == kind::wtns ? "wtns" : "zkey"; }

/* A small valid file of each kind (the key made by setup from chain4.r1cs). */
std::vector<std::uint8_t> valid(kind k) {
  switch (k) {
    case kind::r1cs:
      return write_r1cs(read_r1cs(fixtures::data_file("chain4.r1cs")));
    case kind::wtns:
      return fixtures::data_file("chain4.wtns");
    case kind::zkey: {
      static const auto key =
          io::write_zkey(groth16::setup(read_r1cs(fixtures::data_file("chain4.r1cs")).m,
                                        groth16::basic_toxic_waste<curves::bls12_381>::from_seed("hostile files")));
      return key;
    }
  }
  return {};
}

std::string error_of(kind k, const std::vector<std::uint8_t>& b) {
  return format_error_of([&] {
    switch (k) {
      case kind::r1cs:
        read_r1cs(b);
        break;
      case kind::wtns:
        read_wtns(b);
        break;
      case kind::zkey:
        io::read_zkey(b);
        break;
    }
  });
}

std::string file_error_of(kind k, const fs::path& p) {
  return format_error_of([&] {
    switch (k) {
      case kind::r1cs:
        read_r1cs_file(p);
        break;
      case kind::wtns:
        read_wtns_file(p);
        break;
      case kind::zkey:
        io::read_zkey_file(p);
        break;
    }
  });
}

class HostileFiles : public ::testing::Test {
 protected:
  fs::path dir_;
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("cuzk-hostile-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path put(const std::string& file, const std::vector<std::uint8_t>& bytes) const {
    const fs::path p = dir_ / file;
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    return p;
  }
};

/* Runs f in a child process under an alarm; "exit N" or "killed by signal S (name)". */
std::string in_child(const std::function<int()>& f, unsigned seconds = 20) {
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::alarm(seconds);
    int rc = 3;
    try {
      rc = f();
    } catch (...) {
    }
    std::fflush(nullptr);
    ::_exit(rc);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (WIFSIGNALED(status))
    return "killed by signal " + std::to_string(WTERMSIG(status)) + " (" + ::strsignal(WTERMSIG(status)) + ")";
  return "exit " + std::to_string(WEXITSTATUS(status));
}

/* Another process truncates path to `size` bytes. */
void truncate_from_another_process(const fs::path& path, off_t size) {
  const pid_t pid = ::fork();
  if (pid == 0) ::_exit(::truncate(path.c_str(), size) == 0 ? 0 : 1);
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "truncate " << path;
}

/* Whether message quotes secret: six of its characters in a row, or four of
   its bytes in hex, in either byte order. */
bool quotes(const std::string& message, const std::string& secret) {
  auto hex = [](std::string_view b, bool reversed) {
    static const char* digits = "0123456789abcdef";
    std::string s;
    for (std::size_t i = 0; i < b.size(); ++i) {
      const auto c = static_cast<std::uint8_t>(reversed ? b[b.size() - 1 - i] : b[i]);
      s += digits[c >> 4];
      s += digits[c & 15];
    }
    return s;
  };
  std::string lower = message;
  for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (std::size_t i = 0; i + 6 <= secret.size(); ++i)
    if (message.find(secret.substr(i, 6)) != std::string::npos) return true;
  for (std::size_t i = 0; i + 4 <= secret.size(); ++i)
    for (bool rev : {false, true}) {
      const std::string h = hex(std::string_view(secret).substr(i, 4), rev);
      // all-digit hex cannot be told from a decimal count, which messages may quote
      if (h.find_first_of("abcdef") != std::string::npos && lower.find(h) != std::string::npos) return true;
    }
  return false;
}

TEST_F(HostileFiles, ABadMagicIsNamedNotQuoted) {
  for (kind k : kinds) {
    const std::string expected = name(k) + ": not a ." + name(k) + " file (bad magic)";
    auto b = valid(k);
    std::memcpy(b.data(), "PASS", 4);
    EXPECT_EQ(error_of(k, b), expected);
    const std::string secret = "root:$6$Xyz:19000:0:99999:7:::\n";
    EXPECT_EQ(error_of(k, {secret.begin(), secret.end()}), expected);
    EXPECT_EQ(file_error_of(k, put("secret", {secret.begin(), secret.end()})), expected);
  }
}

TEST_F(HostileFiles, RefusalsQuoteNoneOfTheFile) {
  auto rng = test::rng(0x5ec);
  auto secret = [&] {
    static const char alphabet[] = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    std::string s;
    for (int i = 0; i < 32; ++i) s += alphabet[rng() % 32];
    return s;
  };
  auto planted = [](std::vector<std::uint8_t> b, std::size_t at, const std::string& s) {
    for (std::size_t i = 0; i < s.size() && at + i < b.size(); ++i) b[at + i] = static_cast<std::uint8_t>(s[i]);
    return b;
  };
  // where each format keeps its primes: r1cs and wtns at 28, zkey's q at 44 and r at 96
  const std::vector<std::pair<kind, std::size_t>> fields = {
      {kind::r1cs, 28}, {kind::wtns, 28}, {kind::zkey, 44}, {kind::zkey, 96}};
  int refused = 0;
  for (auto [k, at] : fields) {
    const auto s = secret();
    const auto msg = error_of(k, planted(valid(k), at, s));
    EXPECT_NE(msg, "") << name(k) << " at " << at;
    EXPECT_FALSE(quotes(msg, s)) << msg;
    ++refused;
  }
  for (kind k : kinds) {
    const auto full = valid(k);
    for (int trial = 0; trial < 300; ++trial) {
      const auto s = secret();
      const std::string part = s.substr(0, 4 + rng() % 28);
      const auto msg = error_of(k, planted(full, rng() % full.size(), part));
      if (msg.empty()) continue;
      ++refused;
      EXPECT_FALSE(quotes(msg, part)) << name(k) << ": " << msg;
    }
  }
  EXPECT_GT(refused, 100);
}

TEST_F(HostileFiles, HugeDeclarationsAreRefusedBeforeAnyLargeAllocation) {
  std::vector<std::vector<std::uint8_t>> files;
  std::vector<kind> of;
  auto add = [&](kind k, std::vector<std::uint8_t> b) {
    files.push_back(std::move(b));
    of.push_back(k);
  };
  {  // a 108-byte .r1cs declaring 2^32 - 1 wires and constraints, and sections of 2^40 bytes
    binfile_writer w("r1cs", 1, 2);
    w.begin_section(1);
    w.u32(32);
    w.raw(fr_modulus_le());
    for (std::uint32_t v : {0xffffffffu, 1u, 0u, 0u}) w.u32(v);
    w.u64(0xffffffffu);
    w.u32(0xffffffffu);
    w.end_section();
    w.begin_section(2);
    w.u32(0);
    w.end_section();
    auto b = std::move(w).take();
    add(kind::r1cs, b);
    fixtures::put_u64(b, 16, std::uint64_t{1} << 40);
    add(kind::r1cs, b);
  }
  for (kind k : kinds) {  // 2^32 - 1 sections
    auto b = valid(k);
    fixtures::put_u32(b, 8, 0xffffffffu);
    add(k, b);
  }
  {  // 2^32 - 1 witness values in a 300-byte file
    auto b = valid(kind::wtns);
    fixtures::put_u32(b, 60, 0xffffffffu);
    add(kind::wtns, b);
  }
  for (std::size_t at : {128, 132}) {  // zkey nVars, nPublic
    auto b = valid(kind::zkey);
    fixtures::put_u32(b, at, 0xffffffffu);
    add(kind::zkey, b);
  }
  {  // zkey: 2^32 - 1 coefficients (section 4 follows sections 1 and 2, 12 + 16 + 976 bytes in)
    auto b = valid(kind::zkey);
    fixtures::put_u32(b, 12 + 16 + 12 + 964 + 12, 0xffffffffu);
    add(kind::zkey, b);
  }
  for (std::size_t i = 0; i < files.size(); ++i) {
    largest = 0;
    tracking = true;
    const auto msg = error_of(of[i], files[i]);
    tracking = false;
    EXPECT_NE(msg, "") << "case " << i << " (" << name(of[i]) << ")";
    EXPECT_LT(largest.load(), std::size_t{64} << 10) << "case " << i << ": " << msg;
  }
}

TEST_F(HostileFiles, AFifoIsRefusedWithoutWaitingForAWriter) {
  const fs::path fifo = dir_ / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
  const std::string outcome = in_child(
      [&] {
        int bad = 0;
        for (kind k : kinds)
          if (file_error_of(k, fifo).find("not a regular file") == std::string::npos) ++bad;
        if (format_error_of([&] { mapped_file m(fifo, "wtns"); }).find("not a regular file") == std::string::npos)
          ++bad;
        return bad;
      },
      5);
  EXPECT_EQ(outcome, "exit 0") << "a reader opened the FIFO and waited for a writer (or accepted it)";
  for (kind k : kinds) EXPECT_NE(file_error_of(k, "/dev/zero").find("not a regular file"), std::string::npos);
}

TEST_F(HostileFiles, ASparseTerabyteIsRefusedAtOnce) {
  auto sparse = [&](const std::string& file, const std::vector<std::uint8_t>& head) {
    const fs::path p = put(file, head);
    if (::truncate(p.c_str(), off_t{1} << 40) != 0) return fs::path();
    return p;
  };
  const fs::path zeros = sparse("zeros", {});
  if (zeros.empty()) GTEST_SKIP() << "this filesystem cannot hold a sparse 1 TiB file";
  // a .r1cs whose one section declares the whole terabyte: the container is fine, and its section table, read
  // before anything else, has no header
  std::vector<std::uint8_t> head = {'r', '1', 'c', 's', 1, 0, 0, 0, 1, 0, 0, 0, 7, 0, 0, 0};
  for (int i = 0; i < 8; ++i) head.push_back(static_cast<std::uint8_t>(((std::uint64_t{1} << 40) - 24) >> (8 * i)));
  const fs::path r1cs = sparse("big.r1cs", head);
  const auto start = std::chrono::steady_clock::now();
  for (kind k : kinds) EXPECT_EQ(file_error_of(k, zeros), name(k) + ": not a ." + name(k) + " file (bad magic)");
  EXPECT_EQ(file_error_of(kind::r1cs, r1cs), "r1cs: section 1 (header): missing");
  EXPECT_NE(format_error_of([&] { mapped_file m(zeros, "wtns"); }).find("too large to read into memory"),
            std::string::npos);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
}

/* A witness of 2^19 values (16 MiB, four read chunks). */
std::vector<ff::fr_t> big_witness() {
  auto rng = test::rng(0x77);
  std::vector<ff::fr_t> z(std::size_t{1} << 19);
  z[0] = ff::fr_t::one();
  for (std::size_t i = 1; i < z.size(); ++i) z[i] = ff::fr_t::from_u64(rng());
  return z;
}

/* A key with 10,000 variables and 2^16 H points (11 MB; H spans two read
   chunks), every point a generator: setup would take too long for a test. */
groth16::basic_proving_key<curves::bls12_381> big_key() {
  groth16::basic_proving_key<curves::bls12_381> pk;
  const auto g1 = ec::g1_curve::generator();
  const auto g2 = ec::g2_curve::generator();
  pk.n_vars = 10000;
  pk.n_public = 1;
  pk.domain_size = 1u << 16;
  pk.alpha1 = pk.beta1 = pk.delta1 = g1;
  pk.beta2 = pk.gamma2 = pk.delta2 = g2;
  pk.ic.assign(2, g1);
  pk.coefs = {{0, 0, 0, ff::fr_t::one()}, {1, 5, 7, ff::fr_t::from_u64(3)}};
  pk.a.assign(pk.n_vars, g1);
  pk.b1.assign(pk.n_vars, g1);
  pk.b2.assign(pk.n_vars, g2);
  pk.c.assign(pk.n_vars - 2, g1);
  pk.h_query.assign(pk.domain_size, g1);
  return pk;
}

TEST_F(HostileFiles, BigFilesReadInChunksMatchWhatWasWritten) {
  const auto z = big_witness();
  EXPECT_EQ(read_wtns_file(put("big.wtns", write_wtns(z))), z);
  const auto pk = big_key();
  const auto back = io::read_zkey_file(put("big.zkey", io::write_zkey(pk)));
  EXPECT_EQ(back.a, pk.a);
  EXPECT_EQ(back.b2, pk.b2);
  EXPECT_EQ(back.h_query, pk.h_query);
  EXPECT_EQ(back.coefs.size(), 2u);
}

// The code before this test mapped the file: the read below then died of SIGBUS.
TEST_F(HostileFiles, AFileTruncatedAfterItWasOpenedCannotCrashTheReader) {
  const auto z = big_witness();
  const fs::path p = put("w.wtns", write_wtns(z));
  const std::string outcome = in_child([&] {
    mapped_file m(p, "wtns");
    truncate_from_another_process(p, 100);
    return read_wtns(m.bytes()) == z ? 0 : 1;
  });
  EXPECT_EQ(outcome, "exit 0");

  // the streaming reader, truncated between its header and its values
  put("w.wtns", write_wtns(z));
  const input_file f(p, "wtns");
  ASSERT_EQ(wtns_size(f), z.size());
  truncate_from_another_process(p, 5000);
  std::vector<ff::fr_t> out(z.size());
  const auto msg = format_error_of([&] { read_wtns_into(f, out); });
  EXPECT_NE(msg.find("wtns: cannot read " + p.string() + ": the file ended at byte 5000 while being read"),
            std::string::npos)
      << msg;
  EXPECT_NE(msg.find("truncated by another process?"), std::string::npos) << msg;
}

TEST_F(HostileFiles, TruncationAtARandomMomentDuringAReadIsAFormatError) {
  auto rng = test::rng(0x7a);
  const auto z = big_witness();
  // an .r1cs is read whole, then parsed: 16 MiB of a section the parser skips make its read long enough to hit
  auto r1cs = valid(kind::r1cs);
  fixtures::put_u32(r1cs, 8, 4);
  const std::uint64_t padding = std::uint64_t{16} << 20;
  for (std::uint64_t v : {std::uint64_t{9}, padding}) {
    for (int i = 0; i < (v == 9 ? 4 : 8); ++i) r1cs.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  r1cs.resize(r1cs.size() + padding);
  const std::vector<std::pair<kind, std::vector<std::uint8_t>>> files = {
      {kind::wtns, write_wtns(z)}, {kind::r1cs, r1cs}, {kind::zkey, io::write_zkey(big_key())}};
  // on tmpfs when there is one: on ext4 a truncate can wait for the file's writeback and land after
  // all but the longest reads
  if (fs::is_directory("/dev/shm")) {
    fs::remove_all(dir_);
    dir_ = "/dev/shm" / dir_.filename();
    fs::create_directories(dir_);
  }
  for (const auto& [k, bytes] : files) {
    const fs::path p = put("f." + name(k), bytes);
    // how long the file is being read: all of a streamed parse, only the
    // first read of an .r1cs, which is then parsed in memory
    ASSERT_EQ(file_error_of(k, p), "") << name(k);
    auto full = std::chrono::microseconds::max();
    for (int i = 0; i < 3; ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      if (k == kind::r1cs)
        read_whole_file(p, "r1cs");
      else
        file_error_of(k, p);
      full =
          std::min(full, std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0));
    }
    int failed = 0, mid_read = 0;
    const int rounds = 8;
    for (int round = 0; round < rounds; ++round) {
      put("f." + name(k), bytes);
      const auto delay = std::chrono::microseconds(rng() % (full.count() + 1));
      const off_t to = static_cast<off_t>(rng() % bytes.size());
      std::atomic<bool> go{false};
      std::thread cut([&] {
        while (!go) {
        }
        const auto at = std::chrono::steady_clock::now() + delay;
        while (std::chrono::steady_clock::now() < at) {
        }  // sleeping would overshoot short delays
        ASSERT_EQ(::truncate(p.c_str(), to), 0);
      });
      go = true;
      std::string msg;
      try {
        msg = file_error_of(k, p);  // anything but a format_error fails the test
      } catch (...) {
        cut.join();
        throw;
      }
      cut.join();
      if (!msg.empty()) ++failed;
      if (msg.find("while being read") != std::string::npos) ++mid_read;
    }
    std::printf("%s: %d of %d reads refused, %d of them cut short mid-read (reading takes %lld us)\n", name(k).c_str(),
                failed, rounds, mid_read, static_cast<long long>(full.count()));
    EXPECT_GT(mid_read, 0) << name(k) << ": no truncation landed during a read; the test proved nothing";
  }
}

}  // namespace
}  // namespace cuzk::r1cs
