// A circom circuit's input-signal table, read from the files circom writes
// (laid out here as circom lays them out: the .dat's and the wasm's), named
// from a .sym, and a client's inputs checked against it.
#include "job/input_signals.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>

#include "job/spec.hpp"

namespace cuzk::job {
namespace {

namespace fs = std::filesystem;

struct entry {
  std::string name;
  std::uint64_t first, size;
};

/* circom's table: entry of hash h at h mod 256, the next free one on a collision. */
template <class W>
std::vector<std::uint8_t> table(const std::vector<entry>& es) {
  constexpr std::size_t n = 8 + 2 * sizeof(W);
  std::vector<std::uint8_t> b(256 * n);
  for (const auto& e : es) {
    const std::uint64_t h = signal_hash(e.name);
    std::size_t p = h % 256;
    while (std::memcmp(b.data() + p * n, std::string(8, '\0').data(), 8) != 0) p = (p + 1) % 256;
    const W first = static_cast<W>(e.first), size = static_cast<W>(e.size);
    std::memcpy(b.data() + p * n, &h, 8);
    std::memcpy(b.data() + p * n + 8, &first, sizeof(W));
    std::memcpy(b.data() + p * n + 8 + sizeof(W), &size, sizeof(W));
  }
  return b;
}

void write(const fs::path& p, const std::vector<std::uint8_t>& b) {
  std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
}

void leb(std::vector<std::uint8_t>& out, std::uint64_t v) {
  do {
    std::uint8_t c = v & 0x7f;
    v >>= 7;
    out.push_back(c | (v ? 0x80 : 0));
  } while (v);
}

/* A wasm module of one data section holding the given active segments at offsets 0, 100000, …. */
std::vector<std::uint8_t> wasm_with(const std::vector<std::vector<std::uint8_t>>& segments) {
  std::vector<std::uint8_t> sec, w = {0, 'a', 's', 'm', 1, 0, 0, 0};
  leb(sec, segments.size());
  std::uint32_t at = 0;
  for (const auto& s : segments) {
    sec.push_back(0);
    sec.push_back(0x41);
    leb(sec, at);  // positive and < 2^20: its signed LEB128 is this
    sec.push_back(0x0b);
    leb(sec, s.size());
    sec.insert(sec.end(), s.begin(), s.end());
    at += 100000;
  }
  w.push_back(11);
  leb(w, sec.size());
  w.insert(w.end(), sec.begin(), sec.end());
  return w;
}

struct files : ::testing::Test {
  private_dir dir{"input-signals-test"};
  // "a" and a name that collides with it mod 256 exercise the probing.
  std::vector<entry> es = {{"a", 2, 1}, {"b", 3, 4}, {"m", 7, 6}};
  /* The C++ generator's files holding es's table. */
  std::vector<input_signal> table_at_names() {
    write(dir.path / "c", {0x7f, 'E', 'L', 'F'});
    fs::permissions(dir.path / "c", fs::perms::owner_all);
    write(dir.path / "c.dat", table<std::uint64_t>(es));
    return read_input_signals(witness_generator::at(dir.path / "c"));
  }
};

std::string refusal(const std::vector<input_signal>& t, const std::string& json) {
  try {
    check_input_signals(t, check_circom_inputs(json));
    return "";
  } catch (const job_error& e) {
    return e.what();
  }
}

TEST(InputSignals, HashIsCircomsFnv1a64) {
  EXPECT_EQ(signal_hash("x"), 0xaf63f54c86021707ULL);  // as circom 2.2.3's bounded.dat holds it
  EXPECT_EQ(signal_hash("bound"), 0x22b607b27e57a68bULL);
}

TEST_F(files, TheCppGeneratorsDatAndTheWasmHoldTheSameTable) {
  // Two names hashing to one position, to see the probing followed.
  std::string twin;
  for (int i = 0; twin.empty(); ++i)
    if (const auto s = "t" + std::to_string(i); signal_hash(s) % 256 == signal_hash("a") % 256) twin = s;
  es.push_back({twin, 13, 2});
  auto dat = table<std::uint64_t>(es);
  dat.resize(dat.size() + 1000, 0x5a);  // the rest of a .dat
  write(dir.path / "c", {0x7f, 'E', 'L', 'F'});
  fs::permissions(dir.path / "c", fs::perms::owner_all);
  write(dir.path / "c.dat", dat);
  write(dir.path / "c.wasm",
        wasm_with({std::vector<std::uint8_t>(4096, 1), table<std::uint32_t>(es), std::vector<std::uint8_t>(77, 0)}));
  write(dir.path / "witness_calculator.js", {'/', '/'});
  for (const auto* program : {"c", "c.wasm"}) {
    auto t = read_input_signals(witness_generator::at(dir.path / program));
    ASSERT_EQ(t.size(), 4u) << program;
    std::sort(t.begin(), t.end(), [](auto& x, auto& y) { return x.size < y.size; });
    EXPECT_EQ(t[0].hash, signal_hash("a"));
    EXPECT_EQ(t[1].hash, signal_hash(twin));
    EXPECT_EQ(t[3].size, 6u);
  }
}

TEST_F(files, NoTableFoundChecksNothing) {
  write(dir.path / "c.wasm", wasm_with({std::vector<std::uint8_t>(4096, 1)}));  // 4096 bytes, not a table
  write(dir.path / "witness_calculator.js", {'/', '/'});
  const auto t = read_input_signals(witness_generator::at(dir.path / "c.wasm"));
  EXPECT_TRUE(t.empty());
  EXPECT_EQ(refusal(t, R"({"anything": 1})"), "");
}

TEST_F(files, ASymFileNamesTheSignalsAndTheRefusalsNameThem) {
  auto t = table_at_names();
  std::ofstream(dir.path / "c.sym") << "1,1,0,main.out\n2,2,0,main.a\n3,3,0,main.b[0]\n4,4,0,main.b[1]\n"
                                       "9,9,0,main.m[0][1]\n10,-1,1,main.sub.a\n";
  name_input_signals(t, dir.path / "c.sym");
  EXPECT_EQ(refusal(t, R"({"a": 1, "b": [1, 2, 3, 4], "m": [[1, 2, 3], [4, 5, 6]]})"), "");
  EXPECT_EQ(refusal(t, R"({"a": 1, "b": [1, 2, 3, 4], "m": [[1, 2, 3], [4, 5, 6]], "z": 2})"),
            "the circuit has no input signal z (its inputs: a, b, m)");
  EXPECT_EQ(refusal(t, R"({"a": 1, "b": [1, 2, 3], "m": [[1, 2, 3], [4, 5, 6]]})"),
            "input signal b takes 4 values, not 3");
  EXPECT_EQ(refusal(t, R"({"b": [1, 2, 3, 4]})"), "input signals a, m missing");
}

TEST_F(files, UnnamedSignalsAreCounted) {
  const auto t = table_at_names();
  EXPECT_EQ(refusal(t, R"({"z": 1})"), "the circuit has no input signal z (it has 3 input signals)");
  EXPECT_EQ(refusal(t, R"({"m": [1, 2, 3, 4, 5, 6]})"), "2 of the circuit's 3 input signals missing");
}

}  // namespace
}  // namespace cuzk::job
