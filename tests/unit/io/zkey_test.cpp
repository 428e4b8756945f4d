#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "../groth16/random_circuit.hpp"
#include "groth16/evaluations.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "ec/serialize_snarkjs.hpp"
#include "io/zkey.hpp"
#include "io/zkey_layout.hpp"
#include "r1cs/binfile.hpp"
#include "r1cs/error.hpp"
#include "r1cs/input_file.hpp"
#include "seed.hpp"

namespace cuzk::io {
namespace {

using groth16::h_form;

groth16::basic_proving_key<curves::bls12_381> small_key(h_form h = h_form::odd_coset) {
  auto rng = test::rng(11);
  auto inst = test::make_random_instance(rng, 12, 2, 3);
  return groth16::setup(inst.m, groth16::basic_toxic_waste<curves::bls12_381>::random(), h);
}

template <class C>
void expect_same(const groth16::basic_proving_key<C>& x, const groth16::basic_proving_key<C>& y) {
  EXPECT_EQ(x.n_vars, y.n_vars);
  EXPECT_EQ(x.n_public, y.n_public);
  EXPECT_EQ(x.domain_size, y.domain_size);
  EXPECT_EQ(x.h, y.h);
  EXPECT_EQ(x.alpha1, y.alpha1);
  EXPECT_EQ(x.beta2, y.beta2);
  EXPECT_EQ(x.delta2, y.delta2);
  EXPECT_EQ(x.ic, y.ic);
  ASSERT_EQ(x.coefs.size(), y.coefs.size());
  for (std::size_t i = 0; i < x.coefs.size(); ++i) {
    EXPECT_EQ(x.coefs[i].matrix, y.coefs[i].matrix);
    EXPECT_EQ(x.coefs[i].constraint, y.coefs[i].constraint);
    EXPECT_EQ(x.coefs[i].signal, y.coefs[i].signal);
    EXPECT_EQ(x.coefs[i].value, y.coefs[i].value);
  }
  EXPECT_EQ(x.a, y.a);
  EXPECT_EQ(x.b1, y.b1);
  EXPECT_EQ(x.b2, y.b2);
  EXPECT_EQ(x.c, y.c);
  EXPECT_EQ(x.h_query, y.h_query);
}

void put_u32(std::vector<std::uint8_t>& b, std::size_t at, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) b.at(at + i) = static_cast<std::uint8_t>(v >> (8 * i));
}

std::string error_of(const std::vector<std::uint8_t>& bytes) {
  try {
    read_zkey(bytes);
  } catch (const r1cs::format_error& e) {
    return e.what();
  }
  return "";
}

TEST(ZkeyTest, WrittenKeyReadsBackEqual) {
  auto pk = small_key();
  expect_same(pk, read_zkey(write_zkey(pk)));
}

/* The mapped point sections hold every point in snarkjs's LEM layout
   (Montgomery limbs little-endian, x then y, infinity all zero): the layout
   the CUDA kernels read, so a GPU uploads them without packing. */
TEST(ZkeyTest, MappedSectionsAreThePointsInLemLayout) {
  for (auto form : {h_form::odd_coset, h_form::coefficient}) {
    const auto pk = small_key(form);
    const auto bytes = write_zkey(pk);
    auto owner = std::make_shared<std::vector<std::uint8_t>>(bytes);
    const auto m = read_zkey_mapped(*owner, owner);
    ASSERT_TRUE(m.points_decoded());
    expect_same(m, pk);
    auto lem_g1 = [](const std::vector<groth16::g1_affine_t>& v) {
      std::vector<std::uint8_t> out;
      for (const auto& p : v) {
        const auto e = ec::snarkjs::encode_g1_lem(p);
        out.insert(out.end(), e.begin(), e.end());
      }
      return out;
    };
    std::vector<std::uint8_t> b2;
    for (const auto& p : pk.b2) {
      const auto e = ec::snarkjs::encode_g2_lem(p);
      b2.insert(b2.end(), e.begin(), e.end());
    }
    auto same = [](std::span<const std::uint8_t> a, const std::vector<std::uint8_t>& b) {
      return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
    };
    EXPECT_TRUE(same(m.mapped.a, lem_g1(pk.a)));
    EXPECT_TRUE(same(m.mapped.b1, lem_g1(pk.b1)));
    EXPECT_TRUE(same(m.mapped.c, lem_g1(pk.c)));
    EXPECT_TRUE(same(m.mapped.h, lem_g1(pk.h_query)));
    EXPECT_TRUE(same(m.mapped.b2, b2));
    EXPECT_EQ(m.mapped.owner, owner);
  }
}

/* Read without decoding the points: the same header, IC and coefficients,
   no points on the heap, the counts from the mapped sections; a point
   section of the wrong size is still refused. */
TEST(ZkeyTest, MappedWithoutDecodingKeepsTheHeaderAndCountsAndChecksSizes) {
  const auto pk = small_key();
  const auto bytes = write_zkey(pk);
  auto owner = std::make_shared<std::vector<std::uint8_t>>(bytes);
  const auto m = read_zkey_mapped(*owner, owner, false);
  EXPECT_FALSE(m.points_decoded());
  EXPECT_TRUE(m.a.empty() && m.b1.empty() && m.b2.empty() && m.c.empty() && m.h_query.empty());
  EXPECT_EQ(m.a_count(), pk.a.size());
  EXPECT_EQ(m.b2_count(), pk.b2.size());
  EXPECT_EQ(m.c_count(), pk.c.size());
  EXPECT_EQ(m.h_count(), pk.h_query.size());
  EXPECT_EQ(m.delta2, pk.delta2);
  EXPECT_EQ(m.ic, pk.ic);
  EXPECT_TRUE(m.coefs.empty());
  EXPECT_EQ(m.mapped.coefs.size(), pk.coefs.size() * 44);
  /* the C section one point short: its size field and its bytes */
  auto bad = std::make_shared<std::vector<std::uint8_t>>(bytes);
  const auto f = r1cs::parse_binfile(r1cs::memory_source(bytes, "zkey"), "zkey", 1,
                                     [](std::uint32_t) { return std::string_view("section"); });
  const auto c = f.unique(8, "zkey", "C points");
  ASSERT_TRUE(c.has_value());
  const std::uint64_t size = c->size - 96;
  for (int i = 0; i < 8; ++i) (*bad)[c->offset - 8 + i] = static_cast<std::uint8_t>(size >> (8 * i));
  bad->erase(bad->begin() + static_cast<std::ptrdiff_t>(c->offset + size),
             bad->begin() + static_cast<std::ptrdiff_t>(c->offset + c->size));
  EXPECT_THROW((void)read_zkey_mapped(*bad, bad, false), std::exception);
}

/* Coefficients left in the mapping evaluate a, b, c exactly as decoded ones;
   a bad record is named where it is read. */
TEST(ZkeyTest, CoefficientsLeftInTheMappingEvaluateLikeDecodedOnes) {
  auto rng = test::rng(12);
  auto inst = test::make_random_instance(rng, 40, 2, 3);
  const auto pk = groth16::setup(inst.m, groth16::basic_toxic_waste<curves::bls12_381>::random());
  auto owner = std::make_shared<std::vector<std::uint8_t>>(write_zkey(pk));
  const auto m = read_zkey_mapped(*owner, owner, false);
  const std::size_t n = pk.domain_size;
  std::vector<groth16::fr_t> a1(n), b1(n), c1(n), a2(n), b2(n), c2(n);
  groth16::evaluate_from_coefs(pk, inst.z, a1, b1, c1);
  groth16::evaluate_from_coefs(m, inst.z, a2, b2, c2);
  EXPECT_EQ(a1, a2);
  EXPECT_EQ(b1, b2);
  EXPECT_EQ(c1, c2);
  const std::size_t i = pk.coefs.size() / 3;
  auto* rec = const_cast<std::uint8_t*>(m.mapped.coefs.data()) + i * 44;
  rec[8] = rec[9] = rec[10] = rec[11] = 0xff;  // signal 2^32 - 1
  try {
    groth16::evaluate_from_coefs(m, inst.z, a2, b2, c2);
    FAIL() << "an out-of-range signal was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("coefficient " + std::to_string(i) + " "), std::string::npos) << e.what();
  }
}

/* Coefficients are decoded in parallel; a bad one is still named exactly. */
TEST(ZkeyTest, ABadCoefficientIsNamedByIndex) {
  const auto pk = small_key();
  const auto good = write_zkey(pk);
  const auto f = r1cs::parse_binfile(r1cs::memory_source(good, "zkey"), "zkey", 1,
                                     [](std::uint32_t) { return std::string_view("section"); });
  const auto sec = f.unique(4, "zkey", "coefficients");
  ASSERT_TRUE(sec.has_value());
  constexpr std::size_t record = 12 + 32;
  const std::size_t i = pk.coefs.size() / 2;
  const std::size_t at = sec->offset + 4 + i * record;
  auto matrix = good;
  matrix[at] = 2;
  try {
    (void)read_zkey(matrix);
    ADD_FAILURE() << "a coefficient of matrix 2 was accepted";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("coefficient " + std::to_string(i) + ": matrix 2"), std::string::npos)
        << e.what();
  }
  auto value = good;
  std::fill(value.begin() + at + 12, value.begin() + at + 44, 0xff);
  try {
    (void)read_zkey(value);
    ADD_FAILURE() << "a coefficient value >= r was accepted";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("coefficient " + std::to_string(i) + " value"), std::string::npos) << e.what();
  }
}

TEST(ZkeyTest, FileWrittenToDiskMapsBackEqual) {
  auto pk = small_key();
  auto path = std::filesystem::temp_directory_path() / ("cuzk-zkey-test-" + std::to_string(::getpid()) + ".zkey");
  write_zkey_file(path, pk);
  expect_same(pk, read_zkey_file(path));
  std::filesystem::remove(path);
  EXPECT_THROW(read_zkey_file(path), r1cs::format_error);
  EXPECT_THROW(read_zkey_file(std::filesystem::temp_directory_path()), r1cs::format_error);
}

TEST(ZkeyTest, CoefficientFormKeyKeepsItsForm) {
  auto pk = small_key(h_form::coefficient);
  auto back = read_zkey(write_zkey(pk));
  EXPECT_EQ(back.h, h_form::coefficient);
  expect_same(pk, back);
}

/* A native circuit's key carries section 101: read back native, with its coefficients when read from a
   file (cuzk prove may still evaluate a witness by them), none when mapped from a region (released there);
   the shape names where they lie. A key without the mark (an .r1cs's) is not native. */
TEST(ZkeyTest, ANativeKeyIsMarkedAndItsMappedCoefficientsAreNotRead) {
  auto pk = small_key();
  EXPECT_FALSE(read_zkey(write_zkey(pk)).native);
  EXPECT_FALSE(read_zkey_shape(write_zkey(pk)).native);
  pk.native = true;
  const auto bytes = write_zkey(pk);
  EXPECT_EQ(bytes.size(), write_zkey(small_key()).size() + 12 + 4);
  const auto back = read_zkey(bytes);
  EXPECT_TRUE(back.native);
  expect_same(pk, back);
  const auto shape = read_zkey_shape(bytes);
  EXPECT_TRUE(shape.native);
  EXPECT_EQ(shape.n_coefs, pk.coefs.size());
  EXPECT_EQ(shape.coefs_offset + shape.n_coefs * zkey_coef_bytes,
            zkey_layout::of(pk, pk.coefs.size()).coefs + pk.coefs.size() * zkey_coef_bytes);
  for (bool decode : {true, false}) {
    const auto mapped = read_zkey_mapped(bytes, nullptr, decode);
    EXPECT_TRUE(mapped.native);
    EXPECT_TRUE(mapped.coefs.empty());
    EXPECT_TRUE(mapped.mapped.coefs.empty());
  }
  auto bad = bytes;
  put_u32(bad, bad.size() - 4, 2);  // the mark's value, the file's last field
  EXPECT_NE(error_of(bad).find("native-circuit mark"), std::string::npos) << error_of(bad);
}

TEST(ZkeyTest, TruncatedFileIsRefusedNamingTheProblem) {
  auto bytes = write_zkey(small_key());
  for (std::size_t cut : {std::size_t{0}, std::size_t{7}, std::size_t{40}, bytes.size() / 2, bytes.size() - 1}) {
    auto b = bytes;
    b.resize(cut);
    EXPECT_NE(error_of(b), "") << "cut at " << cut;
  }
}

TEST(ZkeyTest, WrongMagicIsRefused) {
  auto bytes = write_zkey(small_key());
  bytes[0] = 'x';
  EXPECT_NE(error_of(bytes).find("magic"), std::string::npos);
}

TEST(ZkeyTest, AnotherCurveIsRefused) {
  auto bytes = write_zkey(small_key());
  // section 1 is 12 + 4 bytes from offset 12; section 2 starts at 28 with its 12-byte entry,
  // then n8q (4 bytes) and q: flip a byte of q
  bytes[28 + 12 + 4 + 5] ^= 1;
  EXPECT_NE(error_of(bytes).find("base field q is neither BLS12-381's nor BN254's p"), std::string::npos)
      << error_of(bytes);
}

groth16::basic_proving_key<curves::bn254> small_bn254_key(h_form h = h_form::odd_coset) {
  auto rng = test::rng(12);
  auto inst = test::make_random_instance<curves::bn254>(rng, 12, 2, 3);
  return groth16::setup(inst.m, groth16::basic_toxic_waste<curves::bn254>::random(), h);
}

TEST(ZkeyTest, Bn254KeyReadsBackEqualWithSnarkjsHeader) {
  for (auto form : {h_form::odd_coset, h_form::coefficient}) {
    const auto pk = small_bn254_key(form);
    const auto bytes = write_zkey(pk);
    EXPECT_EQ(zkey_curve(bytes), curves::curve_id::bn254);
    std::uint32_t n8q;
    std::memcpy(&n8q, bytes.data() + 40, 4);
    EXPECT_EQ(n8q, 32u);  // snarkjs's bn128 header: n8q = 32, then BN254's p
    const std::uint64_t p[4] = {0x3c208c16d87cfd47, 0x97816a916871ca8d, 0xb85045b68181585d, 0x30644e72e131a029};
    EXPECT_EQ(std::memcmp(bytes.data() + 44, p, sizeof p), 0);
    expect_same(read_zkey<curves::bn254>(bytes), pk);
    auto owner = std::make_shared<std::vector<std::uint8_t>>(bytes);
    const auto m = read_zkey_mapped<curves::bn254>(*owner, owner, false);
    EXPECT_EQ(m.a_count(), pk.a.size());
    EXPECT_EQ(m.b2_count(), pk.b2.size());
    EXPECT_EQ(m.h_count(), pk.h_query.size());
    EXPECT_EQ(m.mapped.b2.size(), pk.b2.size() * 128);
  }
}

/* cuzk prove's read: the points and coefficients where the file holds them
   (mapped); its proof is the decoded key's, bit for bit; an H point off its
   curve is not looked at when read, but the proof then fails to verify; a
   cut file is a format_error. */
template <class C>
void expect_raw_read_proves_like_decoded(std::uint64_t salt) {
  auto rng = test::rng(salt);
  auto inst = test::make_random_instance<C>(rng, 40, 2, 3);
  const auto pk = groth16::setup(inst.m, groth16::basic_toxic_waste<C>::random());
  const auto path = std::filesystem::temp_directory_path() /
                    ("cuzk-zkey-raw-" + std::to_string(::getpid()) + "-" + std::to_string(salt) + ".zkey");
  write_zkey_file(path, pk);
  const auto raw = read_zkey_file_raw<C>(path);
  EXPECT_FALSE(raw.points_decoded());
  auto bytes = write_zkey(pk);
  const auto layout = zkey_layout::of(pk, pk.coefs.size());
  auto is_at = [&](std::span<const std::uint8_t> s, std::uint64_t offset) {
    return std::equal(s.begin(), s.end(), bytes.begin() + std::ptrdiff_t(offset));
  };
  EXPECT_TRUE(is_at(raw.mapped.a, layout.a) && is_at(raw.mapped.b2, layout.b2) && is_at(raw.mapped.h, layout.h_query));
  EXPECT_EQ(raw.mapped.a.size(), pk.a.size() * raw.g1_bytes);
  EXPECT_EQ(raw.mapped.coefs.size(), pk.coefs.size() * zkey_coef_bytes);
  EXPECT_EQ(raw.vk().ic, pk.ic);
  const std::size_t n = pk.domain_size;
  std::vector<ff::fr<C>> a(n), b(n), c(n);
  groth16::evaluate_from_coefs(raw, inst.z, a, b, c);
  const groth16::basic_blinding<C> rs{ff::fr<C>::random(rng), ff::fr<C>::random(rng)};
  const auto proof = groth16::prove(raw, inst.z, a, b, c, rs);
  const auto decoded = groth16::prove(read_zkey_file<C>(path), inst.z, a, b, c, rs);
  EXPECT_TRUE(proof.a == decoded.a && proof.b == decoded.b && proof.c == decoded.c);
  const std::vector<ff::fr<C>> pub(inst.z.begin() + 1, inst.z.begin() + 3);
  EXPECT_TRUE(groth16::verify(pk.vk(), pub, proof));

  bytes[layout.h_query + 5] ^= 1;  // H_0's x: off the curve (almost surely)
  auto other = path;
  other += ".off";
  {
    std::ofstream(other, std::ios::binary | std::ios::trunc)
        .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  }
  {
    const auto off = read_zkey_file_raw<C>(other);
    EXPECT_FALSE(groth16::verify(pk.vk(), pub, groth16::prove(off, inst.z, a, b, c, rs)));
  }
  std::filesystem::resize_file(other, bytes.size() - 10);
  EXPECT_THROW(read_zkey_file_raw<C>(other), r1cs::format_error);
  std::filesystem::remove(other);
  std::filesystem::remove(path);
}

TEST(ZkeyTest, ARawReadKeyProvesTheDecodedKeysProofOnBothCurves) {
  expect_raw_read_proves_like_decoded<curves::bls12_381>(21);
  expect_raw_read_proves_like_decoded<curves::bn254>(22);
}

/* Resident kilobytes of the mapping that holds p (/proc/self/smaps), 0 when none does. */
std::size_t mapping_rss_kb(const void* p) {
  std::ifstream smaps("/proc/self/smaps");
  const auto at = reinterpret_cast<std::uintptr_t>(p);
  bool inside = false;
  for (std::string line; std::getline(smaps, line);) {
    std::uintptr_t lo = 0, hi = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx ", &lo, &hi) == 2) {  // a mapping's first line; "Rss:  4 kB" its own
      inside = lo <= at && at < hi;
    } else if (inside && line.rfind("Rss:", 0) == 0) {
      return std::stoul(line.substr(4));
    }
  }
  return 0;
}

/* cuzk prove's key (read_zkey_file_raw) gives each point section back once its MSM is done, and the
   coefficients once evaluated (mapped_bases::reclaim): the mapping holds little afterwards, and a second proof
   from the same key reads the pages from the file again, bit for bit the same. */
TEST(ZkeyTest, AFileKeyGivesItsPagesBackAfterUseAndReadsThemAgain) {
  using C = curves::bn254;
  auto rng = test::rng(24);
  auto inst = test::make_random_instance<C>(rng, 4000, 2, 3);
  const auto pk = groth16::setup(inst.m, groth16::basic_toxic_waste<C>::random());
  const auto path =
      std::filesystem::temp_directory_path() / ("cuzk-zkey-reclaim-" + std::to_string(::getpid()) + ".zkey");
  write_zkey_file(path, pk);
  const auto raw = read_zkey_file_raw<C>(path);
  ASSERT_TRUE(raw.mapped.reclaimable);
  const std::size_t n = pk.domain_size;
  std::vector<ff::fr<C>> a(n), b(n), c(n);
  groth16::evaluate_from_coefs(raw, inst.z, a, b, c);
  raw.mapped.reclaim(raw.mapped.coefs);
  const groth16::basic_blinding<C> rs{ff::fr<C>::random(rng), ff::fr<C>::random(rng)};
  const auto first = groth16::prove(raw, inst.z, a, b, c, rs);
  /* what stays: the pages the kernel maps around a later fault in a neighbouring section (fault-around, up
     to 64 KiB a fault), at most the four section boundaries' */
  const std::size_t file_kb = std::filesystem::file_size(path) / 1024, left_kb = mapping_rss_kb(raw.mapped.a.data());
  EXPECT_LT(left_kb, 4 * 64 + file_kb / 16)
      << "of a " << file_kb << " KiB key's mapping, " << left_kb << " KiB stayed resident";
  const auto second = groth16::prove(raw, inst.z, a, b, c, rs);
  const auto decoded = groth16::prove(read_zkey_file<C>(path), inst.z, a, b, c, rs);
  EXPECT_TRUE(first.a == decoded.a && first.b == decoded.b && first.c == decoded.c);
  EXPECT_TRUE(second.a == decoded.a && second.b == decoded.b && second.c == decoded.c);
  std::filesystem::remove(path);
}

/* The CPU engine proves from a key read for a GPU (its points left in the
   mapping) as from the decoded key; one whose points are no longer in
   memory is refused with a sentence. */
TEST(ZkeyTest, TheCpuEngineProvesFromAKeysBytesWhereTheyLie) {
  using C = curves::bn254;
  auto rng = test::rng(23);
  auto inst = test::make_random_instance<C>(rng, 40, 2, 3);
  const auto pk = groth16::setup(inst.m, groth16::basic_toxic_waste<C>::random());
  auto owner = std::make_shared<std::vector<std::uint8_t>>(write_zkey(pk));
  auto m = read_zkey_mapped<C>(*owner, owner, false);
  ASSERT_FALSE(m.points_decoded());
  const std::size_t n = pk.domain_size;
  std::vector<ff::fr<C>> a(n), b(n), c(n);
  groth16::evaluate_from_coefs(pk, inst.z, a, b, c);
  const groth16::basic_blinding<C> rs{ff::fr<C>::random(rng), ff::fr<C>::random(rng)};
  const auto p1 = groth16::prove(pk, inst.z, a, b, c, rs), p2 = groth16::prove(m, inst.z, a, b, c, rs);
  EXPECT_TRUE(p1.a == p2.a && p1.b == p2.b && p1.c == p2.c);
  struct gone final : groth16::points_source {
    bool released(std::span<const std::uint8_t>) const override { return true; }
    std::unique_ptr<groth16::points_reader> open(std::span<const std::uint8_t>) const override {
      throw std::runtime_error("no file");
    }
  };
  m.mapped.source = std::make_shared<gone>();
  try {
    (void)groth16::prove(m, inst.z, a, b, c, rs);
    FAIL() << "a key whose points are gone was proven from";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("no longer in memory"), std::string::npos) << e.what();
  }
}

TEST(ZkeyTest, AKeyOfTheOtherCurveIsRefusedNamingBoth) {
  EXPECT_EQ(zkey_curve(write_zkey(small_key())), curves::curve_id::bls12_381);
  EXPECT_EQ(error_of(write_zkey(small_bn254_key())),
            "zkey: section 2 (groth16 header): the key is BN254's (snarkjs: bn128), not BLS12-381's (bls12381)");
  try {
    read_zkey<curves::bn254>(write_zkey(small_key()));
    FAIL() << "a BLS12-381 key was read as BN254's";
  } catch (const r1cs::format_error& e) {
    EXPECT_STREQ(e.what(),
                 "zkey: section 2 (groth16 header): the key is BLS12-381's (snarkjs: bls12381), not BN254's (bn128)");
  }
}

TEST(ZkeyTest, AnotherCurveIsNamedWithoutQuotingTheFile) {
  auto bytes = write_zkey(small_key());
  // q at 44 (48 bytes), r at 96 (32 bytes): the message names the field, not the bytes found there
  for (std::size_t at : {std::size_t{44}, std::size_t{96}}) {
    auto b = bytes;
    std::memcpy(b.data() + at, "\xde\xad\xbe\xef\xca\xfe\xf0\x0d", 8);
    const auto msg = error_of(b);
    EXPECT_NE(msg.find("BLS12-381's"), std::string::npos) << msg;
    EXPECT_EQ(msg.find("0x"), std::string::npos) << msg;
    EXPECT_EQ(msg.find("efbe"), std::string::npos) << msg;
    EXPECT_EQ(msg.find("beef"), std::string::npos) << msg;
  }
}

// nPublic + 1 was computed in 32 bits: nPublic = 2^32 - 1 wrapped to 0 and
// passed both header checks.
TEST(ZkeyTest, NPublicAtTheTopOfItsRangeIsRefusedByTheHeader) {
  auto bytes = write_zkey(small_key());
  put_u32(bytes, 132, 0xffffffffu);  // nPublic, after nVars at 128
  EXPECT_EQ(error_of(bytes), "zkey: section 2 (groth16 header): nVars is smaller than nPublic + 1");
}

// Bytes after the H form were ignored.
TEST(ZkeyTest, ExtraBytesInTheKeyInfoSectionAreRefused) {
  auto bytes = write_zkey(small_key(h_form::coefficient));
  // section 100 is the last: 12-byte entry, then the 4-byte form
  put_u32(bytes, bytes.size() - 4 - 8, 8);
  bytes.insert(bytes.end(), 4, 0);
  EXPECT_EQ(error_of(bytes), "zkey: section 100 (cuzk key info): unexpected bytes after the H form");
}

TEST(ZkeyTest, PointOffTheCurveIsRefusedWithItsIndex) {
  auto pk = small_key();
  auto bytes = write_zkey(pk);
  auto good = write_zkey(pk);
  // the last G1 point of the file is the last H point (odd-coset keys have no section 100)
  std::size_t at = bytes.size() - (64 + 4 + 12) - 96 + 3;
  bytes[at] ^= 0x10;
  auto msg = error_of(bytes);
  EXPECT_NE(msg.find("H points"), std::string::npos) << msg;
  EXPECT_NE(msg.find("point " + std::to_string(pk.h_query.size() - 1)), std::string::npos) << msg;
}

/* Remembers the byte ranges a reader asked for. */
class recording_source final : public r1cs::byte_source {
 public:
  explicit recording_source(std::span<const std::uint8_t> b) : inner_(b, "zkey") {}
  std::uint64_t size() const override { return inner_.size(); }
  std::span<const std::uint8_t> view(std::uint64_t offset, std::size_t n,
                                     std::vector<std::uint8_t>& scratch) const override {
    reads.emplace_back(offset, offset + n);
    return inner_.view(offset, n, scratch);
  }
  mutable std::vector<std::pair<std::uint64_t, std::uint64_t>> reads;

 private:
  r1cs::memory_source inner_;
};

TEST(ZkeyTest, TheVerifyingKeyAloneIsTheFullDecodesAndNoCoefficientOrPointIsRead) {
  for (auto h : {h_form::odd_coset, h_form::coefficient}) {
    const auto pk = small_key(h);
    auto bytes = write_zkey(pk);
    const auto l = zkey_layout::of(pk, pk.coefs.size());
    // every coefficient record and point garbled: the full decode fails, the verifying key is still read
    const std::pair<std::uint64_t, std::uint64_t> garbled[] = {{l.coefs, pk.coefs.size() * zkey_coef_bytes},
                                                               {l.a, pk.n_vars * l.g1()},
                                                               {l.b1, pk.n_vars * l.g1()},
                                                               {l.b2, pk.n_vars * l.g2()},
                                                               {l.c, l.n_private() * l.g1()},
                                                               {l.h_query, l.n_h() * l.g1()}};
    for (const auto& [at, n] : garbled) std::fill_n(bytes.begin() + static_cast<std::ptrdiff_t>(at), n, 0xff);
    EXPECT_THROW(read_zkey(bytes), r1cs::format_error);
    const recording_source src(bytes);
    const auto vk = read_zkey_vk(src);
    const auto full = read_zkey(write_zkey(pk)).vk();
    EXPECT_EQ(vk.alpha1, full.alpha1);
    EXPECT_EQ(vk.beta2, full.beta2);
    EXPECT_EQ(vk.gamma2, full.gamma2);
    EXPECT_EQ(vk.delta2, full.delta2);
    EXPECT_EQ(vk.ic, full.ic);
    for (const auto& [from, to] : src.reads)
      for (const auto& [at, n] : garbled)
        EXPECT_TRUE(to <= at || from >= at + n) << "read [" << from << ", " << to << ")";
  }
}

TEST(ZkeyTest, TheVerifyingKeyOfAFileIsReadFromItsHeaderAndIc) {
  const auto pk = small_key();
  const auto path = std::filesystem::temp_directory_path() / ("cuzk-vk-" + std::to_string(::getpid()) + ".zkey");
  write_zkey_file(path, pk);
  const auto vk = read_zkey_vk_file(path);
  std::filesystem::remove(path);
  EXPECT_EQ(vk.ic, pk.ic);
  EXPECT_EQ(vk.delta2, pk.delta2);
  EXPECT_THROW(read_zkey_vk_file(path), r1cs::format_error);
}

TEST(ZkeyTest, ProtocolOtherThanGroth16IsRefused) {
  auto bytes = write_zkey(small_key());
  bytes[12 + 12] = 2;  // plonk
  EXPECT_NE(error_of(bytes).find("not Groth16"), std::string::npos);
}

TEST(ZkeyTest, RandomCorruptionNeverCrashes) {
  auto bytes = write_zkey(small_key());
  auto rng = test::rng(12);
  for (int i = 0; i < 200; ++i) {
    auto b = bytes;
    for (int k = 0; k < 4; ++k) b[rng() % b.size()] = (std::uint8_t)rng();
    try {
      read_zkey(b);
    } catch (const r1cs::format_error&) {
    }
  }
}

}  // namespace
}  // namespace cuzk::io
