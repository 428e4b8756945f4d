// A client's circom input JSON, checked before any generator runs.
#include "job/circom_inputs.hpp"

#include <gtest/gtest.h>

#include <string>

#include "job/spec.hpp"

namespace cuzk::job {
namespace {

std::string refusal(const std::string& json) {
  try {
    (void)check_circom_inputs(json);
    return "";
  } catch (const job_error& e) {
    return e.what();
  }
}

TEST(CircomInputs, CircomsShapesPassAndNameTheirSignals) {
  const auto given =
      check_circom_inputs(R"({"a": "123", "b": [1, -2, "0x1F", "-7"], "m": [["1", "2"], ["3", "4"]], "e": []})");
  EXPECT_EQ(given, (std::vector<circom_input>{{"a", 1}, {"b", 4}, {"e", 0}, {"m", 4}}));
}

TEST(CircomInputs, WhatIsNotCircomsShapeIsRefusedNamingWhere) {
  EXPECT_NE(refusal(R"({"a": 1.5})").find("input a is 1.5"), std::string::npos);
  EXPECT_NE(refusal(R"({"b": ["1", "12a"]})").find("input b[1] is \"12a\""), std::string::npos);
  EXPECT_NE(refusal(R"({"c": [[true]]})").find("input c[0][0] is true"), std::string::npos);
  EXPECT_NE(refusal(R"({"d": {"x": 1}})").find("input d is"), std::string::npos);
  EXPECT_NE(refusal(R"({"e": "0x"})").find("input e"), std::string::npos);
  EXPECT_NE(refusal(R"(["1"])").find("a JSON object of input signals"), std::string::npos);
  EXPECT_NE(refusal(R"({"a": )").find("not JSON"), std::string::npos);
}

TEST(CircomInputs, HugeOrDeeplyNestedInputsAreRefusedBeforeTheyAreParsed) {
  const std::string huge = "{\"a\": \"" + std::string(100u << 20, '1') + "\"}";  // 100 MB
  EXPECT_NE(refusal(huge).find("over the limit of 16777216"), std::string::npos);
  const std::string deep = "{\"a\": " + std::string(100000, '[') + std::string(100000, ']') + "}";
  EXPECT_NE(refusal(deep).find("nest deeper than 16 arrays"), std::string::npos);
  const std::string ok = "{\"a\": " + std::string(16, '[') + "\"1\"" + std::string(16, ']') + "}";
  EXPECT_EQ(refusal(ok), "");
}

}  // namespace
}  // namespace cuzk::job
