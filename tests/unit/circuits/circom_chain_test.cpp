// The native chain circuit against its circom twin compiled at test time
// (tests/interop/circom/chain.circom): same matrices, same witness, so the
// same public signal. Skipped when node or the npm oracles are missing.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "circuits/chain.hpp"
#include "r1cs/r1cs_file.hpp"
#include "r1cs/recording_cs.hpp"
#include "r1cs/wtns_file.hpp"
#include "seed.hpp"

namespace cuzk::circuits {
namespace {

namespace fs = std::filesystem;

TEST(CircomChain, NativeChainEqualsCircomChain) {
  const fs::path interop = CUZK_INTEROP_DIR;
  if (!fs::exists(interop / "node_modules/.bin/circom2") || std::system("node --version > /dev/null 2>&1") != 0)
    GTEST_FAIL() << "node or tests/interop/node_modules missing: run scripts/setup.sh";
  const fs::path dir = fs::temp_directory_path() / ("cuzk-chain-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::uint64_t n = 37;
  const basic_chain<curves::bls12_381> c(n);
  const auto j = c.random_inputs(cuzk::test::seed());
  fs::copy_file(interop / "circom/chain.circom", dir / "chain.circom");
  std::ofstream(dir / "main.circom") << "pragma circom 2.0.0;\ninclude \"chain.circom\";\ncomponent main = Chain(" << n
                                     << ");\n";
  std::ofstream(dir / "in.json") << j.dump();
  const std::string cd = "cd '" + dir.string() + "' && ";
  const std::string circom = (interop / "node_modules/.bin/circom2").string();
  ASSERT_EQ(std::system((cd + "'" + circom + "' main.circom --r1cs --wasm --prime bls12381 -o . > log 2>&1").c_str()),
            0);
  ASSERT_EQ(
      std::system((cd + "node main_js/generate_witness.js main_js/main.wasm in.json main.wtns >> log 2>&1").c_str()),
      0);

  r1cs::basic_recording_cs<curves::bls12_381> rec;
  c.synthesize(rec, nullptr);
  EXPECT_EQ(std::move(rec).finish(), r1cs::read_r1cs_file(dir / "main.r1cs").m);
  const auto z = r1cs::read_wtns_file(dir / "main.wtns");
  EXPECT_EQ(generate_witness(c, *c.parse_inputs(j)), z);
  EXPECT_EQ(c.public_values(*c.parse_inputs(j)).at(0), z.at(1));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace cuzk::circuits
