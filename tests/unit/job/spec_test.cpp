#include "job/spec.hpp"

#include <gtest/gtest.h>

namespace cuzk::job {
namespace {

TEST(JobSpec, NativeAndCircomSpecsRoundTripThroughJson) {
  blinding_bytes rs{};
  for (std::size_t i = 0; i < rs.size(); ++i) rs[i] = static_cast<std::uint8_t>(i * 7);
  spec n{"/k.zkey", "chain:size=10", R"({"x":"3"})", "", "", rs};
  auto n2 = spec::from_json(n.to_json());
  EXPECT_EQ(n2.circuit, n.circuit);
  EXPECT_EQ(n2.inputs, n.inputs);
  EXPECT_EQ(n2.blinding, n.blinding);
  spec c{"/k.zkey", "", "", "/w.wtns", "/c.r1cs", std::nullopt, "1:2:3:4", "5:6:7:8"};
  auto c2 = spec::from_json(c.to_json());
  EXPECT_FALSE(c2.is_native());
  EXPECT_EQ(c2.wtns, c.wtns);
  EXPECT_EQ(c2.r1cs, c.r1cs);
  EXPECT_EQ(c2.wtns_identity, c.wtns_identity);
  EXPECT_EQ(c2.r1cs_identity, c.r1cs_identity);
  EXPECT_FALSE(c2.blinding);
}

TEST(JobSpec, MalformedOrAmbiguousSpecsAreRefused) {
  EXPECT_THROW(spec::from_json("not json"), job_error);
  EXPECT_THROW(spec::from_json("[]"), job_error);
  EXPECT_THROW(spec::from_json(R"({"zkey":"/k"})"), job_error);
  EXPECT_THROW(spec::from_json(R"({"circuit":"chain","wtns":"/w"})"), job_error);
  EXPECT_THROW(spec::from_json(R"({"circuit":5})"), job_error);
  EXPECT_THROW(spec::from_json(R"({"circuit":"chain","blinding":"1,2"})"), job_error);
  EXPECT_THROW(spec::from_json(R"({"circuit":"chain","blinding":"00ff"})"), job_error);
}

}  // namespace
}  // namespace cuzk::job
