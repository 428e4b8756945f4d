#include <gtest/gtest.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <random>
#include <string>

#include "circuits/registry.hpp"
#include "groth16/native.hpp"
#include "io/zkey.hpp"
#include "io/zkey_setup.hpp"
#include "seed.hpp"

namespace cuzk::io {
namespace {

using groth16::fr_t;
using groth16::h_form;

template <class C>
std::vector<std::uint8_t> streamed(const circuits::basic_circuit<C>& c, const groth16::basic_toxic_waste<C>& t,
                                   h_form h) {
  basic_zkey_setup<C> s(c, t, h);
  std::vector<std::uint8_t> out(s.layout().size, 0xa5);  // every byte must be written
  s.write(out);
  return out;
}

template <class C = curves::bls12_381>
void expect_same_bytes(const std::string& spec, h_form h, const std::string& seed) {
  SCOPED_TRACE(spec + " seed " + seed + " on " + std::string(curves::display_name(C::id)));
  auto c = circuits::make_circuit<C>(spec);
  const auto t = groth16::basic_toxic_waste<C>::from_seed(seed);
  const auto want = write_zkey(groth16::setup_circuit<C>(*c, t, h));
  const auto got = streamed<C>(*c, t, h);
  ASSERT_EQ(got.size(), want.size());
  std::size_t first = 0;
  while (first < got.size() && got[first] == want[first]) ++first;
  EXPECT_EQ(first, got.size()) << "first differing byte";
  const auto pk = read_zkey<C>(got);  // and it reads back as a valid key
  EXPECT_EQ(pk.domain_size, basic_zkey_setup<C>(*c, t, h).layout().domain_size);
}

TEST(ZkeySetup, WritesTheBytesOfTheSetupKeyForEveryCircuitAndHForm) {
  auto rng = test::rng(61);
  const std::string seed = std::to_string(rng());
  const auto size = std::uniform_int_distribution<int>(1, 3000)(rng);
  for (h_form h : {h_form::odd_coset, h_form::coefficient}) {
    expect_same_bytes("chain:size=" + std::to_string(size), h, seed);
    expect_same_bytes("poseidon-merkle:depth=" + std::to_string(1 + rng() % 3), h, seed);
  }
  expect_same_bytes("sha256:blocks=1", h_form::odd_coset, seed);
}

TEST(ZkeySetup, WritesTheBytesOfTheSetupKeyOnBn254) {
  auto rng = test::rng(62);
  const std::string seed = std::to_string(rng());
  const auto size = std::uniform_int_distribution<int>(1, 3000)(rng);
  for (h_form h : {h_form::odd_coset, h_form::coefficient})
    expect_same_bytes<curves::bn254>("chain:size=" + std::to_string(size), h, seed);
  expect_same_bytes<curves::bn254>("poseidon-merkle:depth=" + std::to_string(1 + rng() % 3), h_form::odd_coset, seed);
}

TEST(ZkeySetup, ALayoutPlacesTheSectionsWhereTheReaderFindsThem) {
  auto c = circuits::make_circuit("chain:size=100");
  basic_zkey_setup<curves::bls12_381> s(*c, groth16::basic_toxic_waste<curves::bls12_381>::random(), h_form::odd_coset);
  const auto& l = s.layout();
  std::vector<std::uint8_t> out(l.size);
  s.write(out);
  const auto pk = read_zkey_mapped(out, nullptr, false);
  EXPECT_EQ(pk.mapped.a.data(), out.data() + l.a);
  EXPECT_EQ(pk.mapped.b2.data(), out.data() + l.b2);
  EXPECT_EQ(pk.mapped.h.data(), out.data() + l.h_query);
  EXPECT_EQ(pk.mapped.h.size(), l.n_h() * 96);
  EXPECT_THROW(s.write(out), std::logic_error);
}

/* A circuit that adds a constraint on every synthesis after the first. */
class drifting final : public circuits::basic_circuit<curves::bls12_381> {
 public:
  std::string name() const override { return "drifting"; }
  std::string spec() const override { return "drifting"; }
  std::unique_ptr<circuits::inputs> parse_inputs(const nlohmann::json&) const override { return nullptr; }
  nlohmann::json random_inputs(std::uint64_t) const override { return {}; }
  std::vector<fr_t> public_values(const circuits::inputs&) const override { return {}; }
  void synthesize(r1cs::basic_constraint_system<curves::bls12_381>& cs, const circuits::inputs*) const override {
    auto x = cs.alloc_aux(fr_t::one());
    for (int i = 0; i <= runs_; ++i) cs.enforce(x, x, x);
    ++runs_;
  }
  std::uint64_t min_constraints() const override { return 0; }

 private:
  mutable int runs_ = 0;
};

TEST(ZkeySetup, ACircuitThatSynthesizesDifferentlyEachTimeIsRefused) {
  drifting c;
  basic_zkey_setup<curves::bls12_381> s(c, groth16::basic_toxic_waste<curves::bls12_381>::random(), h_form::odd_coset);
  std::vector<std::uint8_t> out(s.layout().size);
  EXPECT_THROW(s.write(out), std::runtime_error);
}

}  // namespace
}  // namespace cuzk::io
