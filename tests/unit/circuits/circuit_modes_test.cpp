// Every registered circuit on both curves, through every mode, on random inputs.
#include <gtest/gtest.h>

#include <cctype>
#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>

#include "circuits/registry.hpp"
#include "curves/dispatch.hpp"
#include "r1cs/checking_cs.hpp"
#include "r1cs/error.hpp"
#include "r1cs/matrices.hpp"
#include "r1cs/proving_cs.hpp"
#include "r1cs/recording_cs.hpp"
#include "seed.hpp"
#include "tampering_cs.hpp"

namespace cuzk::circuits {
namespace {

template <class C>
void random_inputs_satisfy_every_constraint(const basic_circuit<C>& c) {
  for (std::uint64_t salt = 0; salt < 3; ++salt) {
    const auto in = c.parse_inputs(c.random_inputs(cuzk::test::seed() + salt));
    r1cs::basic_checking_cs<C> cs;
    c.synthesize(cs, in.get());
    ASSERT_TRUE(cs.satisfied()) << c.spec() << ": " << cs.first_failure()->name;
    EXPECT_EQ(cs.sizes(), c.count());
    // public signals (outputs first) equal the native computation
    const auto expected = c.public_values(*in);
    ASSERT_EQ(cs.inputs().size(), expected.size() + 1);
    for (std::size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(cs.inputs()[i + 1], expected[i]) << i;
  }
}

template <class C>
void counting_setup_and_proving_agree(const basic_circuit<C>& c) {
  using fr = ff::fr<C>;
  const r1cs::counts n = c.count();
  r1cs::basic_recording_cs<C> rec;
  c.synthesize(rec, nullptr);
  EXPECT_EQ(rec.sizes(), n);
  const r1cs::basic_matrices<C> m = std::move(rec).finish();
  EXPECT_EQ(m.n_constraints(), n.constraints);
  EXPECT_EQ(m.n_wires, n.inputs + n.aux);

  const auto in = c.parse_inputs(c.random_inputs(cuzk::test::seed()));
  std::vector<fr> a(n.constraints), b(n.constraints), cc(n.constraints), z(n.inputs + n.aux);
  r1cs::basic_proving_cs<C> prover({a, b, cc, std::span(z).first(n.inputs), std::span(z).subspan(n.inputs)});
  c.synthesize(prover, in.get());
  EXPECT_EQ(prover.sizes(), n);
  EXPECT_FALSE(prover.first_unsatisfied());
  std::vector<fr> ea(n.constraints), eb(n.constraints), ec(n.constraints);
  r1cs::evaluate<C>(m, z, ea, eb, ec);
  EXPECT_EQ(ea, a);
  EXPECT_EQ(eb, b);
  EXPECT_EQ(ec, cc);
  EXPECT_EQ(generate_witness(c, *in), z);
}

template <class C>
void a_wrong_witness_value_is_caught(const basic_circuit<C>& c) {
  const auto n = c.count();
  if (n.aux == 0) GTEST_SKIP() << "no private values";
  const auto in = c.parse_inputs(c.random_inputs(cuzk::test::seed()));
  r1cs::basic_checking_cs<C> good;
  c.synthesize(good, in.get());
  auto g = cuzk::test::rng(5);
  for (int trial = 0; trial < 5; ++trial) {
    const std::uint64_t k = g() % n.aux;
    r1cs::basic_checking_cs<C> checker;
    r1cs::fixtures::basic_tampering_cs<C> bad(checker, k, good.aux()[k] + ff::fr<C>::from_u64(2));
    c.synthesize(bad, in.get());
    ASSERT_FALSE(checker.satisfied()) << c.spec() << " aux " << k;
    EXPECT_EQ(checker.first_failure()->name.rfind(c.name(), 0), 0u) << checker.first_failure()->name;
  }
}

template <class C>
void proving_into_too_small_buffers_is_refused(const basic_circuit<C>& c) {
  const auto n = c.count();
  const auto in = c.parse_inputs(c.random_inputs(1));
  std::vector<ff::fr<C>> a(n.constraints - 1), b(n.constraints), cc(n.constraints), z(n.inputs + n.aux);
  r1cs::basic_proving_cs<C> prover({a, b, cc, std::span(z).first(n.inputs), std::span(z).subspan(n.inputs)});
  EXPECT_THROW(c.synthesize(prover, in.get()), r1cs::capacity_error);
}

class EveryCircuit : public ::testing::TestWithParam<std::tuple<curves::curve_id, const char*>> {
 protected:
  /* f(circuit) for this test's spec over its curve */
  template <class F>
  void on_circuit(F&& f) {
    curves::visit(std::get<0>(GetParam()),
                  [&](auto curve) { f(*make_circuit<decltype(curve)>(std::get<1>(GetParam()))); });
  }
};

TEST_P(EveryCircuit, RandomInputsSatisfyEveryConstraint) {
  on_circuit([](const auto& c) { random_inputs_satisfy_every_constraint(c); });
}

TEST_P(EveryCircuit, CountingSetupAndProvingAgreeAndProvingEqualsTheMatrices) {
  on_circuit([](const auto& c) { counting_setup_and_proving_agree(c); });
}

TEST_P(EveryCircuit, AWrongWitnessValueIsCaughtAndNamed) {
  on_circuit([](const auto& c) { a_wrong_witness_value_is_caught(c); });
}

TEST_P(EveryCircuit, ABoundedCountStopsAtItsBoundsAndEqualsTheCountWithinThem) {
  on_circuit([](const auto& c) {
    const auto n = c.count();
    const std::uint64_t wires = n.inputs + n.aux;
    EXPECT_EQ(c.count_within(n.constraints, wires), n);
    EXPECT_EQ(c.count_within(n.constraints + 1000, wires + 1000), n);
    EXPECT_EQ(c.count_within(n.constraints - 1, wires), std::nullopt);
    EXPECT_EQ(c.count_within(n.constraints, wires - 1), std::nullopt);
  });
}

TEST_P(EveryCircuit, ItsSizeFromTheSpecNeverExceedsItsCount) {
  on_circuit([](const auto& c) { EXPECT_LE(c.min_constraints(), c.count().constraints) << c.spec(); });
}

TEST_P(EveryCircuit, ProvingIntoTooSmallBuffersIsRefused) {
  on_circuit([](const auto& c) { proving_into_too_small_buffers_is_refused(c); });
}

TEST(BoundedCount, AHostileSizeCostsOnlyTheBound) {
  const auto c = make_circuit("chain:size=2147483647");
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(c->count_within(1 << 12, 1 << 12), std::nullopt);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(1));
}

TEST(BoundedCount, AHostileSha256LengthIsRefusedBeforeItsMessageIsExpanded) {
  const auto c = make_circuit("sha256:bytes=16777216");  // 2^24 bytes: 134 M bits, gigabytes once expanded
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(c->count_within(1 << 12, 1 << 12), std::nullopt);
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(50));
}

std::string test_name(const ::testing::TestParamInfo<EveryCircuit::ParamType>& p) {
  std::string s = std::get<0>(p.param) == curves::curve_id::bn254 ? "Bn254_" : "Bls12_381_";
  for (const char* c = std::get<1>(p.param); *c; ++c) s += std::isalnum(static_cast<unsigned char>(*c)) ? *c : '_';
  return s;
}

INSTANTIATE_TEST_SUITE_P(Circuits, EveryCircuit,
                         ::testing::Combine(::testing::Values(curves::curve_id::bls12_381, curves::curve_id::bn254),
                                            ::testing::Values("chain:size=1", "chain:size=100",
                                                              "poseidon-merkle:depth=1", "poseidon-merkle:depth=5",
                                                              "sha256:bytes=0", "sha256:bytes=3", "sha256:blocks=1",
                                                              "sha256:bytes=56", "sha256:bytes=130")),
                         test_name);

}  // namespace
}  // namespace cuzk::circuits
