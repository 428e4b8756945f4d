#include "circuits/registry.hpp"

#include <gtest/gtest.h>

#include "circuits/json_inputs.hpp"
#include "circuits/spec.hpp"

namespace cuzk::circuits {
namespace {

std::string error_of(std::string_view spec) {
  try {
    make_circuit(spec);
  } catch (const circuit_error& e) {
    return e.what();
  }
  return "";
}

TEST(Registry, ParsesSpecsIntoNameAndParameters) {
  const auto s = parse_spec("poseidon-merkle:depth=20,x=y");
  EXPECT_EQ(s.name, "poseidon-merkle");
  ASSERT_EQ(s.params.size(), 2u);
  EXPECT_EQ(s.params[0], (std::pair<std::string, std::string>{"depth", "20"}));
  EXPECT_EQ(parse_spec("chain").params.size(), 0u);
}

TEST(Registry, MakesEachCircuitWithACanonicalSpec) {
  EXPECT_EQ(make_circuit("chain:size=65536")->spec(), "chain:size=65536");
  EXPECT_EQ(make_circuit("chain")->spec(), "chain:size=1024");
  EXPECT_EQ(make_circuit("poseidon-merkle:depth=20")->spec(), "poseidon-merkle:depth=20");
  EXPECT_EQ(make_circuit("sha256:blocks=2")->spec(), "sha256:blocks=2");
  EXPECT_EQ(make_circuit("sha256:bytes=119")->spec(), "sha256:blocks=2");
  EXPECT_EQ(make_circuit("sha256:bytes=3")->spec(), "sha256:bytes=3");
  EXPECT_EQ(make_circuit("sha256")->spec(), "sha256:blocks=1");
  for (const auto& info : known_circuits()) EXPECT_EQ(make_circuit(info.name)->name(), info.name);
}

TEST(Registry, RejectsBadSpecsWithAReason) {
  EXPECT_EQ(error_of("groth"), "unknown circuit \"groth\" (known: chain, poseidon-merkle, sha256)");
  EXPECT_EQ(error_of("chain:sizes=4"), "chain: unknown parameter \"sizes\" (known: size)");
  EXPECT_EQ(error_of("chain:size=0"), "chain: size=0 is out of range [1, 2147483647]");
  EXPECT_EQ(error_of("chain:size=abc"), "chain: size=abc is not a decimal integer");
  EXPECT_EQ(error_of("chain:size"), "circuit spec \"chain:size\": expected key=value, got \"size\"");
  EXPECT_EQ(error_of("chain:size=1,size=2"), "circuit spec \"chain:size=1,size=2\": size given twice");
  EXPECT_EQ(error_of(":size=1"), "circuit spec \":size=1\": no circuit name");
  EXPECT_EQ(error_of("chain:size=4,"), "circuit spec \"chain:size=4,\": trailing comma");
  EXPECT_EQ(error_of("sha256:bytes=3,blocks=1"), "sha256: give bytes or blocks, not both");
  EXPECT_EQ(error_of("poseidon-merkle:depth=65"), "poseidon-merkle: depth=65 is out of range [1, 64]");
}

}  // namespace
}  // namespace cuzk::circuits
