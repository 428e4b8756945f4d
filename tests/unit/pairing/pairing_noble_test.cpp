// The pairing against @noble/curves, on each curve:
// tests/interop/noble/pairing_vectors.mjs computes e(aG1, bG2) for seeded
// random a, b; the points must be [a]G1 and [b]G2 as cuzk computes them, and
// every Fp coefficient of the pairing must match.
//   BLS12-381: the points also come as zcash compressed encodings, decoded
//              with the subgroup check.
//   BN254:     noble has no encoding for them; the affine decimals are
//              checked to lie on y^2 = x^3 + 3 and y^2 = x^3 + 3 / (9 + u).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "curves/bls12_381.hpp"
#include "curves/bn254.hpp"
#include "curves/curve_id.hpp"
#include "ec/serialize_zcash.hpp"
#include "pairing/pairing.hpp"
#include "seed.hpp"
#include "test_points.hpp"

namespace cuzk::test {
namespace {

constexpr int kVectors = 8;

template <class C>
class PairingNoble : public ::testing::Test {};
using curves_under_test = ::testing::Types<curves::bls12_381, curves::bn254>;
struct curve_names {
  template <class C>
  static std::string GetName(int) {
    return std::is_same_v<C, curves::bn254> ? "Bn254" : "Bls12_381";
  }
};
TYPED_TEST_SUITE(PairingNoble, curves_under_test, curve_names);

/* stdout of a shell command and its exit status */
std::pair<std::string, int> run(const std::string& cmd) {
  std::string out;
  FILE* pipe = ::popen(cmd.c_str(), "r");
  if (!pipe) return {out, -1};
  std::array<char, 4096> buf;
  while (std::size_t n = std::fread(buf.data(), 1, buf.size(), pipe)) out.append(buf.data(), n);
  int status = ::pclose(pipe);
  return {out, WIFEXITED(status) ? WEXITSTATUS(status) : -1};
}

template <class C>
ff::fp<C> fp_dec(const nlohmann::json& j) {
  auto v = ff::fp<C>::from_decimal(j.get<std::string>());
  if (!v) throw std::runtime_error("bad Fp decimal " + j.dump());
  return *v;
}
template <class C>
ff::fp2<C> fp2_dec(const nlohmann::json& j) {
  return {fp_dec<C>(j.at(0)), fp_dec<C>(j.at(1))};
}

std::vector<std::uint8_t> hex_bytes(const nlohmann::json& j) {
  std::string h = j.get<std::string>();
  auto nibble = [](char c) { return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10; };
  std::vector<std::uint8_t> out(h.size() / 2);
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = std::uint8_t(nibble(h[2 * i]) << 4 | nibble(h[2 * i + 1]));
  return out;
}

/* the 12 coefficients in tower order c0.c0.c0, c0.c0.c1, c0.c1.c0, ..., c1.c2.c1 */
template <class C>
std::array<ff::fp<C>, 12> coefficients(const ff::fp12<C>& f) {
  std::array<ff::fp<C>, 12> out;
  std::size_t i = 0;
  for (const ff::fp6<C>* c6 : {&f.c0, &f.c1})
    for (const ff::fp2<C>* c2 : {&c6->c0, &c6->c1, &c6->c2}) {
      out[i++] = c2->c0;
      out[i++] = c2->c1;
    }
  return out;
}

/* The points of a vector: BLS12-381 from the compressed encodings (checked
   against the affine decimals); BN254 from the affine decimals, which must lie
   on the curves (b = 3 and b' = 3 / (9 + u), written out here). */
template <class C>
void points_of(const nlohmann::json& v, ec::g1_affine<C>& p, ec::g2_affine<C>& q) {
  const ec::g1_affine<C> p_aff{fp_dec<C>(v.at("aG1").at("x")), fp_dec<C>(v.at("aG1").at("y")), false};
  const ec::g2_affine<C> q_aff{fp2_dec<C>(v.at("bG2").at("x")), fp2_dec<C>(v.at("bG2").at("y")), false};
  if constexpr (std::is_same_v<C, curves::bls12_381>) {
    auto p_dec = ec::zcash::decode_g1(hex_bytes(v.at("aG1").at("compressed")));
    auto q_dec = ec::zcash::decode_g2(hex_bytes(v.at("bG2").at("compressed")));
    ASSERT_TRUE(p_dec.has_value() && q_dec.has_value());
    p = *p_dec;
    q = *q_dec;
    EXPECT_EQ(p, p_aff);
    EXPECT_EQ(q, q_aff);
  } else {
    ASSERT_FALSE(v.at("aG1").contains("compressed"));
    using F = ff::fp<C>;
    using F2 = ff::fp2<C>;
    const F b = F::from_u64(3);
    const F2 b2 = F2{F::from_u64(9), F::one()}.inverse() * b;
    EXPECT_EQ(p_aff.y.sqr(), p_aff.x.sqr() * p_aff.x + b) << "aG1 is not on y^2 = x^3 + 3";
    EXPECT_EQ(q_aff.y.sqr(), q_aff.x.sqr() * q_aff.x + b2) << "bG2 is not on y^2 = x^3 + 3 / (9 + u)";
    p = p_aff;
    q = q_aff;
  }
}

TYPED_TEST(PairingNoble, MatchesNobleCurvesOnRandomPoints) {
  using C = TypeParam;
  const std::string cmd = std::string("node '") + CUZK_NOBLE_PAIRING_SCRIPT + "' " + std::to_string(seed()) + " " +
                          std::to_string(kVectors) + " " + std::string(curves::name(C::id)) + " 2>&1";
  auto [out, status] = run(cmd);
  if (status != 0)
    FAIL() << "the @noble/curves oracle did not run (exit " << status
           << "); install Node.js and the pinned npm packages with scripts/setup.sh.\n$ " << cmd << "\n"
           << out;
  nlohmann::json doc = nlohmann::json::parse(out, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << "oracle printed no JSON:\n" << out;
  const auto& vectors = doc.at("vectors");
  ASSERT_EQ(vectors.size(), std::size_t(kVectors));

  for (std::size_t n = 0; n < vectors.size(); ++n) {
    const auto& v = vectors[n];
    SCOPED_TRACE("vector " + std::to_string(n) + ": a = " + v.at("a").get<std::string>() +
                 ", b = " + v.at("b").get<std::string>());
    ec::g1_affine<C> p;
    ec::g2_affine<C> q;
    points_of<C>(v, p, q);
    if (::testing::Test::HasFatalFailure()) return;
    auto a = ff::fr<C>::from_decimal(v.at("a").get<std::string>());
    auto b = ff::fr<C>::from_decimal(v.at("b").get<std::string>());
    ASSERT_TRUE(a && b);
    EXPECT_EQ(scalar_mul(g1_generator<C>(), *a), p);
    EXPECT_EQ(scalar_mul(g2_generator<C>(), *b), q);

    auto got = coefficients(pairing::pairing(p, q));
    const auto& want = v.at("e");
    ASSERT_EQ(want.size(), 12u);
    for (std::size_t i = 0; i < 12; ++i)
      EXPECT_EQ(got[i].to_decimal(), want[i].get<std::string>()) << "coefficient " << i;
  }
}

}  // namespace
}  // namespace cuzk::test
