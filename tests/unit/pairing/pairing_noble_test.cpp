// The pairing against @noble/curves: tests/interop/noble/pairing_vectors.mjs
// computes e(aG1, bG2) for seeded random a, b; every Fp coefficient must match.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ec/serialize_zcash.hpp"
#include "pairing/pairing.hpp"
#include "seed.hpp"
#include "test_points.hpp"

namespace cuzk::test {
namespace {

constexpr int kVectors = 8;

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

ff::fp_t fp_dec(const nlohmann::json& j) {
  auto v = ff::fp_t::from_decimal(j.get<std::string>());
  if (!v) throw std::runtime_error("bad Fp decimal " + j.dump());
  return *v;
}
ff::fp2_t fp2_dec(const nlohmann::json& j) { return {fp_dec(j.at(0)), fp_dec(j.at(1))}; }

std::vector<std::uint8_t> hex_bytes(const nlohmann::json& j) {
  std::string h = j.get<std::string>();
  auto nibble = [](char c) { return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10; };
  std::vector<std::uint8_t> out(h.size() / 2);
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = std::uint8_t(nibble(h[2 * i]) << 4 | nibble(h[2 * i + 1]));
  return out;
}

/* the 12 coefficients in tower order c0.c0.c0, c0.c0.c1, c0.c1.c0, ..., c1.c2.c1 */
std::array<ff::fp_t, 12> coefficients(const ff::fp12_t& f) {
  std::array<ff::fp_t, 12> out;
  std::size_t i = 0;
  for (const ff::fp6_t* c6 : {&f.c0, &f.c1})
    for (const ff::fp2_t* c2 : {&c6->c0, &c6->c1, &c6->c2}) {
      out[i++] = c2->c0;
      out[i++] = c2->c1;
    }
  return out;
}

TEST(PairingNoble, MatchesNobleCurvesOnRandomPoints) {
  const std::string cmd = std::string("node '") + CUZK_NOBLE_PAIRING_SCRIPT + "' " + std::to_string(seed()) + " " +
                          std::to_string(kVectors) + " 2>&1";
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
    /* the points from their compressed encodings (with the subgroup check),
       and the same points from the affine coordinates */
    auto p_dec = ec::zcash::decode_g1(hex_bytes(v.at("aG1").at("compressed")));
    auto q_dec = ec::zcash::decode_g2(hex_bytes(v.at("bG2").at("compressed")));
    ASSERT_TRUE(p_dec.has_value() && q_dec.has_value());
    const ec::g1_affine_t& p = *p_dec;
    const ec::g2_affine_t& q = *q_dec;
    EXPECT_EQ(p, (ec::g1_affine_t{fp_dec(v.at("aG1").at("x")), fp_dec(v.at("aG1").at("y")), false}));
    EXPECT_EQ(q, (ec::g2_affine_t{fp2_dec(v.at("bG2").at("x")), fp2_dec(v.at("bG2").at("y")), false}));
    auto a = ff::fr_t::from_decimal(v.at("a").get<std::string>());
    auto b = ff::fr_t::from_decimal(v.at("b").get<std::string>());
    ASSERT_TRUE(a && b);
    EXPECT_EQ(scalar_mul(g1_generator(), *a), p);
    EXPECT_EQ(scalar_mul(g2_generator(), *b), q);

    auto got = coefficients(pairing::pairing(p, q));
    const auto& want = v.at("e");
    ASSERT_EQ(want.size(), 12u);
    for (std::size_t i = 0; i < 12; ++i)
      EXPECT_EQ(got[i].to_decimal(), want[i].get<std::string>()) << "coefficient " << i;
  }
}

}  // namespace
}  // namespace cuzk::test
