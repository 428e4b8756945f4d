// A request's JSON, refused past its depth bound before it is built.
#include "gateway/proof_json.hpp"

#include <gtest/gtest.h>

namespace cuzk::gateway {
namespace {

TEST(ProofJson, ABodyDeeperThanTheBoundIsRefusedAndOneWithinItIsRead) {
  auto nested = [](int depth) { return std::string(depth, '[') + std::string(depth, ']'); };
  EXPECT_NO_THROW(parse_bounded(nested(8), 8));
  EXPECT_THROW(parse_bounded(nested(9), 8), nlohmann::json::exception);
  EXPECT_THROW(parse_bounded(nested(100000), 64), nlohmann::json::exception);
  try {
    parse_bounded(R"({"a": {"b": {"c": 1}}})", 2);
    ADD_FAILURE() << "depth 3 read under a bound of 2";
  } catch (const nlohmann::json::exception& e) {
    EXPECT_NE(std::string(e.what()).find("nested deeper than 2"), std::string::npos) << e.what();
  }
  EXPECT_EQ(parse_bounded(R"({"circuit": "x", "inputs": {"a": ["1", "2"]}})", 3)["inputs"]["a"][1], "2");
}

}  // namespace
}  // namespace cuzk::gateway
