// G1/G2 multiples, sums and encodings against independent implementations:
// tests/interop/noble/g1g2_vectors.mjs prints what @noble/curves and
// ffjavascript (under snarkjs) compute for scalars drawn from this run's seed,
// for BLS12-381 (zcash encodings and LEM) and BN254 (affine coordinates in
// decimal and LEM; zcash defines no BN254 encoding).
// Needs node and the npm oracles: scripts/setup.sh installs both. Missing
// either is a failure, not a skip.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
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

/* the script's name for the curve */
template <class C>
constexpr const char* script_curve = test::is_bn254<C> ? "bn254" : "bls12-381";

/* The script's runs, one per curve. The first fixture to set up starts the
   runs of every curve that has selected tests, so that they overlap (each
   takes a second or two, mostly node starting up); a run under a filter for
   one curve (ctest runs each test alone) starts only that curve's. */
class oracle_runs {
 public:
  struct result {
    std::string error;
    nlohmann::json vectors;
  };

  static oracle_runs& get() {
    static oracle_runs o;
    return o;
  }

  /* starts the run for curve unless started */
  void start(const std::string& curve) {
    if (pipes_.count(curve) || results_.count(curve)) return;
    if (!node_checked_) {
      node_checked_ = true;
      FILE* f = popen("node --version 2>/dev/null", "r");
      std::string v = f ? drain(f) : "";
      node_ok_ = f && pclose(f) == 0 && !v.empty();
    }
    if (!node_ok_) {
      results_[curve] = {"node is not installed" + hint(), {}};
      return;
    }
    std::uint64_t s = cuzk::test::seed() ^ 0x6e6f626c65ull;  // "noble"
    std::string cmd = "node '" CUZK_G1G2_VECTORS_SCRIPT "' " + std::to_string(s) + " " +
                      std::to_string(kRandomScalars) + " " + curve + " 2>&1";
    FILE* f = popen(cmd.c_str(), "r");
    if (!f)
      results_[curve] = {"could not start node" + hint(), {}};
    else
      pipes_[curve] = f;
  }

  /* waits for the run of curve (starting it if needed) */
  const result& wait(const std::string& curve) {
    start(curve);
    if (auto it = pipes_.find(curve); it != pipes_.end()) {
      std::string out = drain(it->second);
      int rc = pclose(it->second);
      pipes_.erase(it);
      result r;
      if (rc != 0) {
        r.error = "g1g2_vectors.mjs " + curve + " failed" + hint() + ":\n" + out;
      } else {
        r.vectors = nlohmann::json::parse(out, nullptr, /*allow_exceptions=*/false);
        if (r.vectors.is_discarded()) r.error = "g1g2_vectors.mjs " + curve + " printed no JSON:\n" + out;
      }
      results_[curve] = std::move(r);
    }
    return results_.at(curve);
  }

 private:
  static std::string hint() { return " (run scripts/setup.sh to install node and the npm oracles in tests/interop)"; }
  static std::string drain(FILE* f) {
    std::string out;
    char buf[4096];
    std::size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
    return out;
  }

  bool node_checked_ = false, node_ok_ = false;
  std::map<std::string, FILE*> pipes_;
  std::map<std::string, result> results_;
};

/* whether any selected test belongs to the suite instantiated for curve C */
template <class C>
bool selected(const std::string& suite_prefix) {
  const auto* u = ::testing::UnitTest::GetInstance();
  const std::string name = suite_prefix + "/" + test::curve_name<C>;
  for (int i = 0; i < u->total_test_suite_count(); ++i) {
    const auto* s = u->GetTestSuite(i);
    if (name == s->name() && s->test_to_run_count() > 0) return true;
  }
  return false;
}

template <class C>
class NobleVectors : public ::testing::Test {
 public:  // for the check functions below
  using fr = ff::fr<C>;
  using fp = ff::fp<C>;
  using fp2 = ff::fp2<C>;

  static void SetUpTestSuite() {
    auto& runs = oracle_runs::get();
    if (selected<curves::bls12_381>("NobleVectors")) runs.start(script_curve<curves::bls12_381>);
    if (selected<curves::bn254>("NobleVectors")) runs.start(script_curve<curves::bn254>);
    const auto& r = runs.wait(script_curve<C>);
    error_ = r.error;
    vectors_ = r.vectors;
  }
  void SetUp() override { ASSERT_TRUE(error_.empty()) << error_; }

  static fr scalar(const nlohmann::json& v) {
    auto k = fr::from_decimal(v.get<std::string>());
    EXPECT_TRUE(k.has_value()) << v;
    return k.value_or(fr::zero());
  }
  static g1_affine<C> g1_mul(const fr& k) { return mul(g1_jacobian<C>::generator(), k).to_affine(); }
  static g2_affine<C> g2_mul(const fr& k) { return mul(g2_jacobian<C>::generator(), k).to_affine(); }

  /* the script's BN254 form: {x, y} in decimal, Fp2 as [c0, c1], or {infinity: true} */
  static nlohmann::json affine_json(const g1_affine<C>& p) {
    if (p.infinity) return {{"infinity", true}};
    return {{"x", p.x.to_decimal()}, {"y", p.y.to_decimal()}};
  }
  static nlohmann::json affine_json(const g2_affine<C>& p) {
    if (p.infinity) return {{"infinity", true}};
    return {{"x", {p.x.c0.to_decimal(), p.x.c1.to_decimal()}}, {"y", {p.y.c0.to_decimal(), p.y.c1.to_decimal()}}};
  }
  /* and back: the point the decimals name, which must be a subgroup point */
  static g1_affine<C> g1_from_json(const nlohmann::json& j) {
    if (j.contains("infinity")) return {};
    auto x = fp::from_decimal(j["x"].get<std::string>()), y = fp::from_decimal(j["y"].get<std::string>());
    EXPECT_TRUE(x && y) << j;
    return {x.value_or(fp::zero()), y.value_or(fp::zero()), false};
  }
  static g2_affine<C> g2_from_json(const nlohmann::json& j) {
    if (j.contains("infinity")) return {};
    auto e = [&](const char* c, int i) {
      auto v = fp::from_decimal(j[c][i].get<std::string>());
      EXPECT_TRUE(v.has_value()) << j;
      return v.value_or(fp::zero());
    };
    return {fp2{e("x", 0), e("x", 1)}, fp2{e("y", 0), e("y", 1)}, false};
  }

  static inline std::string error_;
  static inline nlohmann::json vectors_;
};
TYPED_TEST_SUITE(NobleVectors, test::both_curves, test::curve_names);

template <class F, class TypeParam>
void g1_multiples_match() {
  const auto& v = F::vectors_;
  ASSERT_EQ(v["multiples"].size(), std::size_t(kRandomScalars + 4));
  EXPECT_EQ(v["multiples"][0]["k"], "0");
  EXPECT_EQ(v["multiples"][1]["k"], "1");
  EXPECT_EQ(v["multiples"][3]["k"], (-F::fr::one()).to_decimal());  // r - 1
  for (const auto& m : v["multiples"]) {
    auto p = F::g1_mul(F::scalar(m["k"]));
    if constexpr (test::is_bn254<TypeParam>) {
      EXPECT_EQ(F::affine_json(p).dump(), m["g1"].dump()) << "k = " << m["k"];
      auto q = F::g1_from_json(m["g1"]);
      EXPECT_TRUE(is_on_curve(q) && in_subgroup(q)) << m["g1"];
      EXPECT_EQ(q, p);
    } else {
      EXPECT_EQ(to_hex(zcash::encode_g1_compressed(p)), m["g1_compressed"]) << "k = " << m["k"];
      EXPECT_EQ(to_hex(zcash::encode_g1_uncompressed(p)), m["g1_uncompressed"]) << "k = " << m["k"];
      auto decoded = zcash::decode_g1(from_hex(m["g1_compressed"]));
      ASSERT_TRUE(decoded.has_value()) << to_string(decoded.error());
      EXPECT_EQ(*decoded, p);
    }
  }
}

template <class F, class TypeParam>
void g2_multiples_match() {
  for (const auto& m : F::vectors_["multiples"]) {
    auto p = F::g2_mul(F::scalar(m["k"]));
    if constexpr (test::is_bn254<TypeParam>) {
      EXPECT_EQ(F::affine_json(p).dump(), m["g2"].dump()) << "k = " << m["k"];
      auto q = F::g2_from_json(m["g2"]);
      EXPECT_TRUE(is_on_curve(q) && in_subgroup(q)) << m["g2"];
      EXPECT_EQ(q, p);
    } else {
      EXPECT_EQ(to_hex(zcash::encode_g2_compressed(p)), m["g2_compressed"]) << "k = " << m["k"];
      EXPECT_EQ(to_hex(zcash::encode_g2_uncompressed(p)), m["g2_uncompressed"]) << "k = " << m["k"];
      auto decoded = zcash::decode_g2(from_hex(m["g2_compressed"]));
      ASSERT_TRUE(decoded.has_value()) << to_string(decoded.error());
      EXPECT_EQ(*decoded, p);
    }
  }
}

template <class F, class TypeParam>
void sums_match() {
  ASSERT_FALSE(F::vectors_["sums"].empty());
  for (const auto& s : F::vectors_["sums"]) {
    auto a = F::scalar(s["a"]), b = F::scalar(s["b"]);
    auto g1 = mul(g1_jacobian<TypeParam>::generator(), a) + mul(g1_jacobian<TypeParam>::generator(), b);
    auto g2 = mul(g2_jacobian<TypeParam>::generator(), a) + mul(g2_jacobian<TypeParam>::generator(), b);
    if constexpr (test::is_bn254<TypeParam>) {
      EXPECT_EQ(F::affine_json(g1.to_affine()).dump(), s["g1"].dump()) << "a = " << s["a"] << ", b = " << s["b"];
      EXPECT_EQ(F::affine_json(g2.to_affine()).dump(), s["g2"].dump()) << "a = " << s["a"] << ", b = " << s["b"];
    } else {
      EXPECT_EQ(to_hex(zcash::encode_g1_compressed(g1.to_affine())), s["g1"]);
      EXPECT_EQ(to_hex(zcash::encode_g2_compressed(g2.to_affine())), s["g2"]);
    }
  }
}

template <class F, class TypeParam>
void snarkjs_lem_matches() {
  for (const auto& m : F::vectors_["multiples"]) {
    auto k = F::scalar(m["k"]);
    auto p1 = F::g1_mul(k);
    auto p2 = F::g2_mul(k);
    EXPECT_EQ(to_hex(snarkjs::encode_lem(p1)), m["g1_lem"]) << "k = " << m["k"];
    EXPECT_EQ(to_hex(snarkjs::encode_lem(p2)), m["g2_lem"]) << "k = " << m["k"];
    auto d1 = snarkjs::decode_lem<typename F::fp>(from_hex(m["g1_lem"]), point_check::subgroup);
    auto d2 = snarkjs::decode_lem<typename F::fp2>(from_hex(m["g2_lem"]), point_check::subgroup);
    ASSERT_TRUE(d1.has_value()) << to_string(d1.error()) << " k = " << m["k"];
    ASSERT_TRUE(d2.has_value()) << to_string(d2.error()) << " k = " << m["k"];
    EXPECT_EQ(*d1, p1);
    EXPECT_EQ(*d2, p2);
    if constexpr (!test::is_bn254<TypeParam>) {  // the BLS12-381 names
      EXPECT_EQ(to_hex(snarkjs::encode_g1_lem(p1)), m["g1_lem"]);
      EXPECT_EQ(to_hex(snarkjs::encode_g2_lem(p2)), m["g2_lem"]);
    }
  }
}

/* One test per curve: under ctest every test is its own process, which runs
   the node script again (a second or two each). */
TYPED_TEST(NobleVectors, PointsAndEncodingsMatch) {
  using F = TestFixture;
  {
    SCOPED_TRACE("[k]G1");
    g1_multiples_match<F, TypeParam>();
  }
  {
    SCOPED_TRACE("[k]G2");
    g2_multiples_match<F, TypeParam>();
  }
  {
    SCOPED_TRACE("[a]G + [b]G");
    sums_match<F, TypeParam>();
  }
  {
    SCOPED_TRACE("snarkjs LEM");
    snarkjs_lem_matches<F, TypeParam>();
  }
}

}  // namespace
}  // namespace cuzk::ec
