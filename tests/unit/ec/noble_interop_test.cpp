// G1/G2 multiples, sums and encodings against independent implementations:
// tests/interop/noble/g1g2_vectors.mjs prints what @noble/curves and
// ffjavascript (under snarkjs) compute for scalars drawn from this run's seed.
// Needs node and the npm oracles: scripts/setup.sh installs both. Missing
// either is a failure, not a skip.
#include <gtest/gtest.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "ec/serialize_snarkjs.hpp"
#include "ec/serialize_zcash.hpp"
#include "ec_test_util.hpp"
#include "seed.hpp"

#ifndef CUZK_G1G2_VECTORS_SCRIPT
#error "CUZK_G1G2_VECTORS_SCRIPT must name tests/interop/noble/g1g2_vectors.mjs"
#endif

namespace cuzk::ec {
namespace {

using test::from_hex;
using test::to_hex;

constexpr int kRandomScalars = 16;

/* Runs a shell command, returns (exit status, stdout). */
std::pair<int, std::string> run(const std::string& cmd) {
  std::string out;
  FILE* f = popen(cmd.c_str(), "r");
  if (!f) return {-1, out};
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  return {pclose(f), out};
}

class NobleVectors : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const std::string hint = " (run scripts/setup.sh to install node and the npm oracles in tests/interop)";
    auto [node_rc, node_version] = run("node --version 2>/dev/null");
    if (node_rc != 0) {
      error_ = "node is not installed" + hint;
      return;
    }
    std::uint64_t s = cuzk::test::seed() ^ 0x6e6f626c65ull;  // "noble"
    std::string cmd = "node '" CUZK_G1G2_VECTORS_SCRIPT "' " + std::to_string(s) + " " +
                      std::to_string(kRandomScalars) + " 2>&1";
    auto [rc, out] = run(cmd);
    if (rc != 0) {
      error_ = "g1g2_vectors.mjs failed" + hint + ":\n" + out;
      return;
    }
    vectors_ = nlohmann::json::parse(out, nullptr, /*allow_exceptions=*/false);
    if (vectors_.is_discarded()) error_ = "g1g2_vectors.mjs printed no JSON:\n" + out;
  }
  void SetUp() override { ASSERT_TRUE(error_.empty()) << error_; }

  static inline std::string error_;
  static inline nlohmann::json vectors_;
};

fr_t scalar(const nlohmann::json& v) {
  auto k = fr_t::from_decimal(v.get<std::string>());
  EXPECT_TRUE(k.has_value()) << v;
  return k.value_or(fr_t::zero());
}

TEST_F(NobleVectors, G1MultiplesOfTheGeneratorMatch) {
  ASSERT_EQ(vectors_["multiples"].size(), std::size_t(kRandomScalars + 4));
  for (const auto& m : vectors_["multiples"]) {
    auto p = mul(g1_jacobian_t::generator(), scalar(m["k"])).to_affine();
    EXPECT_EQ(to_hex(zcash::encode_g1_compressed(p)), m["g1_compressed"]) << "k = " << m["k"];
    EXPECT_EQ(to_hex(zcash::encode_g1_uncompressed(p)), m["g1_uncompressed"]) << "k = " << m["k"];
    auto decoded = zcash::decode_g1(from_hex(m["g1_compressed"]));
    ASSERT_TRUE(decoded.has_value()) << to_string(decoded.error());
    EXPECT_EQ(*decoded, p);
  }
}

TEST_F(NobleVectors, G2MultiplesOfTheGeneratorMatch) {
  for (const auto& m : vectors_["multiples"]) {
    auto p = mul(g2_jacobian_t::generator(), scalar(m["k"])).to_affine();
    EXPECT_EQ(to_hex(zcash::encode_g2_compressed(p)), m["g2_compressed"]) << "k = " << m["k"];
    EXPECT_EQ(to_hex(zcash::encode_g2_uncompressed(p)), m["g2_uncompressed"]) << "k = " << m["k"];
    auto decoded = zcash::decode_g2(from_hex(m["g2_compressed"]));
    ASSERT_TRUE(decoded.has_value()) << to_string(decoded.error());
    EXPECT_EQ(*decoded, p);
  }
}

TEST_F(NobleVectors, SumsOfMultiplesMatch) {
  ASSERT_FALSE(vectors_["sums"].empty());
  for (const auto& s : vectors_["sums"]) {
    fr_t a = scalar(s["a"]), b = scalar(s["b"]);
    auto g1 = mul(g1_jacobian_t::generator(), a) + mul(g1_jacobian_t::generator(), b);
    auto g2 = mul(g2_jacobian_t::generator(), a) + mul(g2_jacobian_t::generator(), b);
    EXPECT_EQ(to_hex(zcash::encode_g1_compressed(g1.to_affine())), s["g1"]);
    EXPECT_EQ(to_hex(zcash::encode_g2_compressed(g2.to_affine())), s["g2"]);
  }
}

TEST_F(NobleVectors, SnarkjsLemLayoutMatchesFfjavascript) {
  for (const auto& m : vectors_["multiples"]) {
    fr_t k = scalar(m["k"]);
    auto p1 = mul(g1_jacobian_t::generator(), k).to_affine();
    auto p2 = mul(g2_jacobian_t::generator(), k).to_affine();
    EXPECT_EQ(to_hex(snarkjs::encode_g1_lem(p1)), m["g1_lem"]) << "k = " << m["k"];
    EXPECT_EQ(to_hex(snarkjs::encode_g2_lem(p2)), m["g2_lem"]) << "k = " << m["k"];
    auto d1 = snarkjs::decode_g1_lem(from_hex(m["g1_lem"]), point_check::subgroup);
    auto d2 = snarkjs::decode_g2_lem(from_hex(m["g2_lem"]), point_check::subgroup);
    ASSERT_TRUE(d1.has_value() && d2.has_value());
    EXPECT_EQ(*d1, p1);
    EXPECT_EQ(*d2, p2);
  }
}

}  // namespace
}  // namespace cuzk::ec
