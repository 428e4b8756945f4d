// The native Poseidon on BN254 against circomlibjs's poseidon
// (tests/interop/poseidon/circomlib_poseidon.mjs) on random inputs: 2-to-1
// hashes of random field elements and a poseidon-merkle root. Fails when node
// or the npm oracles are missing.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "circuits/poseidon.hpp"
#include "circuits/poseidon_merkle.hpp"
#include "random.hpp"
#include "seed.hpp"

namespace cuzk::circuits {
namespace {

namespace fs = std::filesystem;
using C = curves::bn254;
using fr = ff::fr<C>;

TEST(CircomlibPoseidon, NativeBn254HashesAndMerkleRootEqualCircomlibjs) {
  const fs::path interop = CUZK_INTEROP_DIR;
  if (!fs::exists(interop / "node_modules/circomlibjs") || std::system("node --version > /dev/null 2>&1") != 0)
    GTEST_FAIL() << "node or tests/interop/node_modules/circomlibjs missing: run scripts/setup.sh";
  auto g = test::rng(31);
  nlohmann::json in;
  std::vector<fr> want;
  for (int i = 0; i < 64; ++i) {
    // small, large and edge values: 0, 1, r - 1 and uniform elements
    const fr l = i == 0 ? fr::zero() : i == 1 ? -fr::one() : test::random_fr<C>(g);
    const fr r = i == 0 ? fr::one() : test::random_fr<C>(g);
    in["pairs"].push_back({l.to_decimal(), r.to_decimal()});
    want.push_back(poseidon_hash2<C>(l, r));
  }
  const basic_poseidon_merkle<C> tree(16);
  const auto j = tree.random_inputs(g());
  in["leaf"] = j["leaf"];
  in["index"] = j["index"];
  in["path"] = j["path"];

  const fs::path dir = fs::temp_directory_path() / ("cuzk-poseidon-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / "in.json") << in.dump();
  const std::string cmd = "node '" + (interop / "poseidon/circomlib_poseidon.mjs").string() + "' '" +
                          (dir / "in.json").string() + "' > '" + (dir / "out.json").string() + "'";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::ifstream f(dir / "out.json");
  const auto out = nlohmann::json::parse(f);
  fs::remove_all(dir);

  ASSERT_EQ(out["hashes"].size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i)
    EXPECT_EQ(out["hashes"][i].get<std::string>(), want[i].to_decimal()) << "pair " << i << ": " << in["pairs"][i];
  const auto root = tree.public_values(*tree.parse_inputs(j)).at(0);
  EXPECT_EQ(out["root"].get<std::string>(), root.to_decimal()) << j.dump();
}

}  // namespace
}  // namespace cuzk::circuits
