// Reads .r1cs/.wtns files that circom2 and its witness calculator produce at
// test time (npm oracles in tests/interop; skipped when node is missing).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include "r1cs/checking_cs.hpp"
#include "r1cs/r1cs_file.hpp"
#include "r1cs/replay.hpp"
#include "r1cs/wtns_file.hpp"

namespace cuzk::r1cs {
namespace {

namespace fs = std::filesystem;

const fs::path interop = CUZK_INTEROP_DIR;

class CircomOutput : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(interop / "node_modules/.bin/circom2") || std::system("node --version > /dev/null 2>&1") != 0)
      GTEST_FAIL() << "node or tests/interop/node_modules missing: run scripts/setup.sh";
    dir_ = fs::temp_directory_path() / ("cuzk-r1cs-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }

  /* Compiles main = template(args) from tests/interop/circom/<file> and
     computes the witness of inputs_json; returns false on tool failure. */
  bool build(const std::string& file, const std::string& main, const std::string& inputs_json) {
    fs::copy_file(interop / "circom" / file, dir_ / file);
    std::ofstream(dir_ / "main.circom") << "pragma circom 2.0.0;\ninclude \"" << file << "\";\ncomponent main " << main
                                        << ";\n";
    std::ofstream(dir_ / "in.json") << inputs_json;
    const std::string cd = "cd '" + dir_.string() + "' && ";
    const std::string circom = (interop / "node_modules/.bin/circom2").string();
    return std::system((cd + "'" + circom + "' main.circom --r1cs --wasm --prime bls12381 -o . > log 2>&1").c_str()) ==
               0 &&
           std::system(
               (cd + "node main_js/generate_witness.js main_js/main.wasm in.json main.wtns >> log 2>&1").c_str()) == 0;
  }

  fs::path dir_;
};

TEST_F(CircomOutput, ChainWitnessSatisfiesItsConstraints) {
  ASSERT_TRUE(build("chain.circom", "= Chain(64)", R"({"x": "123456789"})"));
  const basic_r1cs_file<curves::bls12_381> r = read_r1cs_file(dir_ / "main.r1cs");
  const auto z = read_wtns_file(dir_ / "main.wtns");
  EXPECT_EQ(r.header.n_constraints, 64u);
  EXPECT_EQ(r.header.n_pub_out, 1u);
  EXPECT_EQ(r.header.n_prv_in, 1u);
  EXPECT_EQ(z.size(), r.m.n_wires);
  EXPECT_FALSE(first_unsatisfied(r.m, z));
  // out = x_64, x_{i+1} = x_i^2 + i
  fr_t x = fr_t::from_u64(123456789);
  for (std::uint64_t i = 0; i < 64; ++i) x = x.sqr() + fr_t::from_u64(i);
  EXPECT_EQ(z[1], x);
  EXPECT_EQ(z[2], fr_t::from_u64(123456789));
}

TEST_F(CircomOutput, MixWitnessPassesEveryModeAndAWrongValueIsCaught) {
  ASSERT_TRUE(build("mix.circom", "{public [a]} = Mix(5)", R"({"a": "9", "b": ["1", "2", "3", "4", "5"]})"));
  const basic_r1cs_file<curves::bls12_381> r = read_r1cs_file(dir_ / "main.r1cs");
  auto z = read_wtns_file(dir_ / "main.wtns");
  EXPECT_EQ(r.header.n_pub_out, 2u);
  EXPECT_EQ(r.header.n_pub_in, 1u);
  EXPECT_EQ(r.header.n_prv_in, 5u);
  basic_checking_cs<curves::bls12_381> ok;
  replay(ok, r.m, z);
  EXPECT_TRUE(ok.satisfied());
  z[r.m.n_wires - 1] += fr_t::one();
  basic_checking_cs<curves::bls12_381> bad;
  replay(bad, r.m, z);
  EXPECT_FALSE(bad.satisfied());
  EXPECT_EQ(first_unsatisfied(r.m, z), bad.first_failure()->index);
}

}  // namespace
}  // namespace cuzk::r1cs
