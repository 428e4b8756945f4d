#include "r1cs/r1cs_file.hpp"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "file_bytes.hpp"
#include "r1cs/wtns_file.hpp"
#include "random.hpp"
#include "seed.hpp"

namespace cuzk::r1cs {
namespace {

r1cs_shape read_shape(const std::vector<std::uint8_t>& b) { return read_r1cs_shape(memory_source(b, "r1cs")); }

using fixtures::format_error_of;

fr_t f(std::uint64_t v) { return fr_t::from_u64(v); }

// Offsets in files written by write_r1cs (sections 1, 2, 3 in that order).
constexpr std::size_t header_type = 12, header_size = 16, prime_at = 28, n_wires_at = 60, n_pub_out_at = 64,
                      n_labels_at = 76, n_constraints_at = 84, constraints_type = 88, constraints_size = 92,
                      first_count = 100, first_wire = 104, first_coeff = 108;

std::string read_error(const std::vector<std::uint8_t>& bytes) {
  return format_error_of([&] { read_r1cs(bytes); });
}

std::vector<std::uint8_t> rewritten_chain4() { return write_r1cs(read_r1cs(fixtures::data_file("chain4.r1cs"))); }

TEST(R1csFile, ReadsCircomChainOutput) {
  const basic_r1cs_file<curves::bls12_381> f4 = read_r1cs(fixtures::data_file("chain4.r1cs"));
  EXPECT_EQ(f4.header, (r1cs_header{6, 1, 0, 1, 8, 4}));
  EXPECT_EQ(f4.m.n_wires, 6u);
  EXPECT_EQ(f4.m.n_public, 1u);
  ASSERT_EQ(f4.m.n_constraints(), 4u);
  // circom writes x_{i+1} = x_i^2 + i as (-x_i) * (x_i) = i - x_{i+1}
  for (std::uint32_t i = 0; i < 4; ++i) {
    const std::uint32_t xi = i == 0 ? 2 : i + 2, next = i == 3 ? 1 : i + 3;
    EXPECT_EQ(f4.m.a.row(i).size(), 1u);
    EXPECT_EQ(f4.m.a.row(i)[0], (basic_term<curves::bls12_381>{xi, -f(1)}));
    EXPECT_EQ(f4.m.b.row(i)[0], (basic_term<curves::bls12_381>{xi, f(1)}));
    const auto c = f4.m.c.row(i);
    ASSERT_EQ(c.size(), i == 0 ? 1u : 2u);
    if (i > 0) {
      EXPECT_EQ(c[0], (basic_term<curves::bls12_381>{0, f(i)}));
    }
    EXPECT_EQ(c.back(), (basic_term<curves::bls12_381>{next, -f(1)}));
  }
}

TEST(R1csFile, CircomWitnessSatisfiesCircomConstraints) {
  for (const char* name : {"chain4", "mix3"}) {
    const basic_r1cs_file<curves::bls12_381> r = read_r1cs(fixtures::data_file(std::string(name) + ".r1cs"));
    const auto z = read_wtns(fixtures::data_file(std::string(name) + ".wtns"));
    EXPECT_EQ(z.size(), r.m.n_wires) << name;
    EXPECT_FALSE(first_unsatisfied(r.m, z)) << name;
  }
}

TEST(R1csFile, ReadsPublicInputsAfterOutputs) {
  const basic_r1cs_file<curves::bls12_381> r = read_r1cs(fixtures::data_file("mix3.r1cs"));
  EXPECT_EQ(r.header, (r1cs_header{9, 2, 1, 3, 11, 4}));
  EXPECT_EQ(r.m.n_public, 3u);
  const auto z = read_wtns(fixtures::data_file("mix3.wtns"));
  // a = 7, b = (2, 5, 11): sum = (1*2 + 2*5 + 3*11 + 5) * (a - 1), prod = acc_3
  EXPECT_EQ(z[1], f(300));
  EXPECT_EQ(z[2], f(2043));
  EXPECT_EQ(z[3], f(7));
}

TEST(R1csFile, WriteThenReadGivesTheSameSystem) {
  const basic_r1cs_file<curves::bls12_381> r = read_r1cs(fixtures::data_file("mix3.r1cs"));
  const basic_r1cs_file<curves::bls12_381> again = read_r1cs(write_r1cs(r));
  EXPECT_EQ(again.header, r.header);
  EXPECT_EQ(again.m, r.m);
}

TEST(R1csFile, RejectsShortFilesAndWrongMagicOrVersion) {
  EXPECT_NE(read_error({}).find("r1cs: file is 0 bytes, too short"), std::string::npos);
  auto b = rewritten_chain4();
  b[0] = 'w';
  EXPECT_EQ(read_error(b), "r1cs: not a .r1cs file (bad magic)");
  b = rewritten_chain4();
  fixtures::put_u32(b, 4, 2);
  EXPECT_EQ(read_error(b), "r1cs: version 2 is not supported (expected 1)");
}

TEST(R1csFile, RejectsAnotherPrime) {
  auto b = rewritten_chain4();
  const auto bn = fixtures::bn254_prime_le();
  std::copy(bn.begin(), bn.end(), b.begin() + prime_at);
  EXPECT_EQ(read_shape(b).curve, curves::curve_id::bn254);
  EXPECT_EQ(read_error(b),
            "r1cs: section 1 (header): the constraint system is over BN254's scalar field r (snarkjs and circom: "
            "bn128), the key BLS12-381's (bls12381)");
  b[prime_at + 3] ^= 0x40; /* a prime of no curve */
  EXPECT_EQ(read_error(b),
            "r1cs: section 1 (header): prime is neither BLS12-381's nor BN254's scalar field r (32 bytes)");
}

TEST(R1csFile, Bn254MatricesRoundTripAndEvaluate) {
  using C = curves::bn254;
  auto rng = test::rng(40);
  basic_r1cs_file<C> f;
  f.m.n_wires = 4;
  f.m.n_public = 1;
  std::vector<ff::fr<C>> z = {ff::fr<C>::one(), test::random_fr<C>(rng), test::random_fr<C>(rng), {}};
  z[3] = z[1] * z[2];
  f.m.a.push({1, ff::fr<C>::one()});
  f.m.b.push({2, ff::fr<C>::one()});
  f.m.c.push({3, ff::fr<C>::one()});
  for (auto* r : {&f.m.a, &f.m.b, &f.m.c}) r->end_row();
  f.header = header_for(f.m);
  const auto bytes = write_r1cs(f);
  EXPECT_EQ(read_shape(bytes).curve, curves::curve_id::bn254);
  const auto back = read_r1cs<C>(bytes);
  EXPECT_EQ(back.m, f.m);
  EXPECT_FALSE(first_unsatisfied<C>(back.m, z).has_value());
  std::vector<ff::fr<C>> a(1), b(1), c(1);
  EXPECT_EQ(evaluate_r1cs<C>(memory_source(bytes, "r1cs"), read_shape(bytes), z, a, b, c), 1u);
  EXPECT_EQ(a[0] * b[0], c[0]);
  z[3] += ff::fr<C>::one();
  EXPECT_EQ(first_unsatisfied<C>(back.m, z), std::optional<std::uint64_t>(0));
}

TEST(R1csFile, RejectsSectionSizesThatDoNotMatch) {
  auto b = rewritten_chain4();
  fixtures::put_u64(b, constraints_size, b.size());
  EXPECT_NE(read_error(b).find("r1cs: section 2 (constraints): declares"), std::string::npos) << read_error(b);

  b = rewritten_chain4();
  fixtures::put_u64(b, header_size, 60);  // header too short; the rest becomes a bogus section table
  EXPECT_NE(read_error(b).find("r1cs:"), std::string::npos);

  b = rewritten_chain4();
  b.push_back(0);
  EXPECT_EQ(read_error(b), "r1cs: 1 trailing bytes after the last section");
}

TEST(R1csFile, RejectsAConstraintCountThatDisagreesWithTheSection) {
  auto b = rewritten_chain4();
  fixtures::put_u32(b, n_constraints_at, 3);
  EXPECT_NE(read_error(b).find("r1cs: section 2 (constraints): "), std::string::npos);
  EXPECT_NE(read_error(b).find("bytes left over after the header's 3 constraints"), std::string::npos);
  fixtures::put_u32(b, n_constraints_at, 5);
  EXPECT_NE(read_error(b).find("r1cs: section 2 (constraints): constraint 4, A: term count is cut off"),
            std::string::npos)
      << read_error(b);
}

TEST(R1csFile, RejectsCoefficientsNotBelowTheModulus) {
  auto b = rewritten_chain4();
  for (std::size_t i = 0; i < 32; ++i)
    b[first_coeff + i] = static_cast<std::uint8_t>(ff::fr_params::modulus[i / 8] >> (8 * (i % 8)));
  EXPECT_EQ(read_error(b),
            "r1cs: section 2 (constraints): constraint 0, A term 0: coefficient is not below the field modulus r");
}

TEST(R1csFile, RejectsWireIndicesOutOfRange) {
  auto b = rewritten_chain4();
  fixtures::put_u32(b, first_wire, 6);
  EXPECT_EQ(read_error(b),
            "r1cs: section 2 (constraints): constraint 0, A term 0: wire 6 is out of range (the circuit has 6 wires)");
}

TEST(R1csFile, RejectsTermCountsBeyondTheSection) {
  auto b = rewritten_chain4();
  fixtures::put_u32(b, first_count, 0xffffffffu);
  EXPECT_NE(read_error(b).find("constraint 0, A declares 4294967295 terms"), std::string::npos) << read_error(b);
}

TEST(R1csFile, RejectsInconsistentHeaderCounts) {
  auto b = rewritten_chain4();
  fixtures::put_u32(b, n_wires_at, 0);
  EXPECT_NE(read_error(b).find("section 1 (header): nWires is 0"), std::string::npos) << read_error(b);
  b = rewritten_chain4();
  fixtures::put_u32(b, n_pub_out_at, 6);
  EXPECT_NE(read_error(b).find("section 1 (header): nPubOut + nPubIn + nPrvIn = 7"), std::string::npos);
  b = rewritten_chain4();
  fixtures::put_u64(b, n_labels_at, 5);
  EXPECT_NE(read_error(b).find("section 1 (header): nLabels = 5 is below nWires = 6"), std::string::npos);
  b = rewritten_chain4();
  fixtures::put_u32(b, 24, 48);
  EXPECT_NE(read_error(b).find("section 1 (header): field size is 48 bytes"), std::string::npos);
}

TEST(R1csFile, RejectsMissingRepeatedOrCustomGateSections) {
  auto b = rewritten_chain4();
  fixtures::put_u32(b, header_type, 7);  // unknown types are skipped, so the header is now missing
  EXPECT_EQ(read_error(b), "r1cs: section 1 (header): missing");
  b = rewritten_chain4();
  fixtures::put_u32(b, constraints_type, 1);
  EXPECT_EQ(read_error(b), "r1cs: section 1 (header): appears more than once");
  b = rewritten_chain4();
  fixtures::put_u32(b, constraints_type, 4);
  EXPECT_NE(read_error(b).find("r1cs: section 4 (custom gates list): custom gates are PLONK-only"), std::string::npos);
}

TEST(R1csFile, RejectsABadWireMap) {
  auto b = rewritten_chain4();
  const std::size_t map_at = b.size() - 6 * 8;
  fixtures::put_u64(b, map_at + 8 * 2, 8);
  EXPECT_EQ(read_error(b), "r1cs: section 3 (wire-to-label map): wire 2 maps to label 8, not below nLabels = 8");
}

// Found by the fuzzer: without the wire map nothing bounded nWires, so a
// 200-byte file could declare 2^32 - 1 wires and make whatever sizes arrays by
// n_wires (write_r1cs, setup) allocate tens of gigabytes.
TEST(R1csFile, RejectsAFileWithoutItsWireMap) {
  binfile_writer w("r1cs", 1, 2);
  w.begin_section(1);
  w.u32(32);
  w.raw(fr_modulus_le());
  for (std::uint32_t v : {0xffffffffu, 1u, 0u, 0u}) w.u32(v);
  w.u64(0xffffffffu);
  w.u32(1);
  w.end_section();
  w.begin_section(2);
  for (int k = 0; k < 3; ++k) w.u32(0);
  w.end_section();
  EXPECT_EQ(read_error(std::move(w).take()), "r1cs: section 3 (wire-to-label map): missing");
  auto b = rewritten_chain4();
  fixtures::put_u32(b, b.size() - 6 * 8 - 12, 9);  // the map's type: an unknown section, skipped
  EXPECT_EQ(read_error(b), "r1cs: section 3 (wire-to-label map): missing");
}

TEST(R1csFile, EveryTruncationIsAFormatError) {
  for (const char* name : {"chain4.r1cs", "mix3.r1cs"}) {
    const auto full = fixtures::data_file(name);
    for (std::size_t n = 0; n < full.size(); ++n) {
      const std::vector<std::uint8_t> cut(full.begin(), full.begin() + n);
      EXPECT_NE(read_error(cut), "") << name << " cut at " << n;
    }
  }
}

TEST(R1csFile, RandomCorruptionNeverCrashes) {
  auto g = cuzk::test::rng(7);
  const auto full = fixtures::data_file("mix3.r1cs");
  for (int trial = 0; trial < 3000; ++trial) {
    auto b = full;
    const int flips = 1 + static_cast<int>(g() % 4);
    for (int k = 0; k < flips; ++k) b[g() % b.size()] ^= static_cast<std::uint8_t>(1 + g() % 255);
    try {
      read_r1cs(b);  // may parse: flipped bytes inside a coefficient can still be valid
    } catch (const format_error&) {
    }
  }
}

TEST(R1csFile, UnsortedOrRepeatedTermsAreNormalized) {
  // A = 2*w2 + 0*w1 + 3*w2 + w1 over 3 wires: normalized to w1 + 5*w2
  binfile_writer w("r1cs", 1, 3);
  w.begin_section(2);
  w.u32(4);
  for (auto [wire, c] : {std::pair{2u, 2u}, {1u, 0u}, {2u, 3u}, {1u, 1u}}) {
    w.u32(wire);
    w.fr(f(c));
  }
  w.u32(0);
  w.u32(0);
  w.end_section();
  w.begin_section(1);
  w.u32(32);
  w.raw(fr_modulus_le());
  for (std::uint32_t v : {3u, 1u, 0u, 0u}) w.u32(v);
  w.u64(3);
  w.u32(1);
  w.end_section();
  w.begin_section(3);
  for (std::uint64_t i = 0; i < 3; ++i) w.u64(i);
  w.end_section();
  const basic_r1cs_file<curves::bls12_381> r = read_r1cs(std::move(w).take());
  ASSERT_EQ(r.m.a.row(0).size(), 2u);
  EXPECT_EQ(r.m.a.row(0)[0], (basic_term<curves::bls12_381>{1, f(1)}));
  EXPECT_EQ(r.m.a.row(0)[1], (basic_term<curves::bls12_381>{2, f(5)}));
}

TEST(R1csFile, MissingFilesAreFormatErrorsNamingThePath) {
  EXPECT_NE(
      format_error_of([] { read_r1cs_file("/nonexistent/x.r1cs"); }).find("r1cs: cannot read /nonexistent/x.r1cs"),
      std::string::npos);
}

// What the header declares is checked against a key before anything is read
// or allocated (issue 19): a sparse file of a gigabyte costs a few preads.
struct sparse_file {
  std::filesystem::path path;
  /* `head` then holes up to `size` bytes */
  sparse_file(const std::vector<std::uint8_t>& head, std::uint64_t size)
      : path(std::filesystem::temp_directory_path() / ("cuzk-r1cs-sparse-" + std::to_string(::getpid()) + ".r1cs")) {
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(head.data()), static_cast<std::streamsize>(head.size()));
    std::filesystem::resize_file(path, size);
  }
  ~sparse_file() { std::filesystem::remove(path); }
};

/* Sections 1 and 3 of a system of n_wires wires (n_public public) declaring
   n_constraints, then the constraints section header declaring `section`
   bytes, which the caller provides (or leaves as holes). */
std::vector<std::uint8_t> head_of(std::uint32_t n_wires, std::uint32_t n_public, std::uint32_t n_constraints,
                                  std::uint64_t section) {
  binfile_writer w("r1cs", 1, 3);
  w.begin_section(1);
  w.u32(32);
  w.raw(fr_modulus_le());
  for (std::uint32_t v : {n_wires, n_public, 0u, 0u}) w.u32(v);
  w.u64(n_wires);
  w.u32(n_constraints);
  w.end_section();
  w.begin_section(3);
  for (std::uint64_t i = 0; i < n_wires; ++i) w.u64(i);
  w.end_section();
  w.u32(2);
  w.u64(section);
  return std::move(w).take();
}

std::uint64_t peak_rss_kib() {
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  return static_cast<std::uint64_t>(u.ru_maxrss);
}

TEST(R1csShape, IsReadFromTheHeaderAndAgreesWithTheFullRead) {
  const auto bytes = fixtures::data_file("mix3.r1cs");
  const auto s = read_r1cs_shape(memory_source(bytes, "r1cs"));
  EXPECT_EQ(s.header, read_r1cs(bytes).header);
  EXPECT_GE(s.constraints_bytes, 12u * s.header.n_constraints);
  EXPECT_NO_THROW(check_r1cs_shape(s, {9, 3, 4}));
}

TEST(R1csShape, CountsBeyondTheKeyAreRefusedNamingTheNumberAndTheBound) {
  const auto s = read_r1cs_shape(memory_source(fixtures::data_file("mix3.r1cs"), "r1cs"));
  EXPECT_EQ(format_error_of([&] {
              check_r1cs_shape(s, {10, 3, 4});
            }),
            "r1cs: the header declares 9 wires, the key's witness has 10 values (the constraint system of another "
            "circuit?)");
  EXPECT_EQ(format_error_of([&] {
              check_r1cs_shape(s, {9, 1, 4});
            }),
            "r1cs: the header declares 3 public signals, the key 1");
  EXPECT_EQ(format_error_of([&] {
              check_r1cs_shape(s, {9, 3, 3});
            }),
            "r1cs: the header declares 4 constraints, more than the 3 the key's domain holds");
}

TEST(R1csShape, ASparseGigabyteIsRefusedBeforeItIsReadWhateverItClaims) {
  constexpr std::uint64_t gib = std::uint64_t{1} << 30;
  const std::uint64_t rss = peak_rss_kib();
  {  // 2^30 / 12 empty constraints: all 1 GiB of zeros holds
    const auto head = head_of(6, 1, static_cast<std::uint32_t>(gib / 12), gib);
    const sparse_file file(head, head.size() + gib);
    const input_file in(file.path, "r1cs");
    const auto s = read_r1cs_shape(in);
    EXPECT_EQ(format_error_of([&] {
                check_r1cs_shape(s, {6, 1, 4091});
              }),
              "r1cs: the header declares 89478485 constraints, more than the 4091 the key's domain holds");
  }
  {  // 4 constraints in a constraints section of a gigabyte
    const auto head = head_of(6, 1, 4, gib);
    const sparse_file file(head, head.size() + gib);
    const auto s = read_r1cs_shape(input_file(file.path, "r1cs"));
    EXPECT_EQ(format_error_of([&] {
                check_r1cs_shape(s, {6, 1, 4091});
              }),
              "r1cs: section 2 (constraints): is 1073741824 bytes, more than 4 constraints over 6 wires can take "
              "(2640)");
  }
  {  // within the bound, all holes: evaluated a chunk at a time, refused after the 4 constraints' 48 bytes
    const auto head = head_of(6, 1, 4, 2640);
    const sparse_file file(head, head.size() + 2640);
    const input_file in(file.path, "r1cs");
    const auto s = read_r1cs_shape(in);
    check_r1cs_shape(s, {6, 1, 4091});
    std::vector<fr_t> z(6, f(1)), a(4), b(4), c(4);
    EXPECT_EQ(format_error_of([&] { evaluate_r1cs(in, s, z, a, b, c); }),
              "r1cs: section 2 (constraints): 2592 bytes left over after the header's 4 constraints");
  }
  EXPECT_LT(peak_rss_kib() - rss, 64u * 1024) << "KiB of peak memory for files that claim a gigabyte";
}

TEST(R1csShape, StreamedEvaluationEqualsTheMatricesForMemoryAndFiles) {
  for (const char* name : {"chain4", "mix3"}) {
    const auto bytes = fixtures::data_file(std::string(name) + ".r1cs");
    const auto z = read_wtns(fixtures::data_file(std::string(name) + ".wtns"));
    const basic_r1cs_file<curves::bls12_381> r = read_r1cs(bytes);
    const auto n = r.m.n_constraints();
    std::vector<fr_t> a(n), b(n), c(n), a2(n), b2(n), c2(n);
    evaluate(r.m, z, a, b, c);
    const memory_source src(bytes, "r1cs");
    EXPECT_EQ(evaluate_r1cs(src, read_r1cs_shape(src), z, a2, b2, c2), n);
    EXPECT_EQ(a2, a) << name;
    EXPECT_EQ(b2, b) << name;
    EXPECT_EQ(c2, c) << name;
    const sparse_file file(bytes, bytes.size());
    const input_file in(file.path, "r1cs");
    std::fill(a2.begin(), a2.end(), fr_t());
    EXPECT_EQ(evaluate_r1cs(in, read_r1cs_shape(in), z, a2, b2, c2), n);
    EXPECT_EQ(a2, a) << name;
  }
}

TEST(R1csShape, StreamedEvaluationRefusesWhatTheFullReadRefuses) {
  auto b = rewritten_chain4();
  fixtures::put_u32(b, first_wire, 6);
  const auto z = read_wtns(fixtures::data_file("chain4.wtns"));
  std::vector<fr_t> a(4), bb(4), c(4);
  const memory_source src(b, "r1cs");
  EXPECT_EQ(format_error_of([&] { evaluate_r1cs(src, read_r1cs_shape(src), z, a, bb, c); }), read_error(b));
  b = rewritten_chain4();
  fixtures::put_u64(b, b.size() - 6 * 8 + 8 * 2, 8);  // a label beyond nLabels
  const memory_source src2(b, "r1cs");
  EXPECT_EQ(format_error_of([&] { evaluate_r1cs(src2, read_r1cs_shape(src2), z, a, bb, c); }), read_error(b));
}

}  // namespace
}  // namespace cuzk::r1cs
