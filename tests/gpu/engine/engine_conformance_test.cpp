// Engine conformance (DESIGN §5, icicle's main-vs-reference habit): with
// fixed blinding, every engine's proof is byte-identical to the CPU engine's
// and verifies, for the native circuits and a circom circuit (BLS12-381), in
// both H conventions. Typed over the engines, so the CPU engine runs the same
// cases. random_conformance_test.cpp does the same on random circuits of
// both curves.
// Sizes up to 2^(CUZK_GPU_MAX_LOG) constraints (default 14; the GPU run sets
// 20). A circom circuit comes from CUZK_GPU_CIRCOM (a stem: STEM.r1cs and
// STEM.wtns), made by scripts/gpu-pack.sh.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "circuits/registry.hpp"
#include "engine_kinds.hpp"
#include "gpu_test.hpp"
#include "groth16/engine.hpp"
#include "groth16/evaluations.hpp"
#include "groth16/native.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "r1cs/r1cs_file.hpp"
#include "r1cs/wtns_file.hpp"
#include "seed.hpp"

namespace cuzk::groth16 {
namespace {

using test::cpu_kind;
using test::cuda_kind;
using test::max_log;

/* One proving instance: its key, a witness, a/b/c, the public signals. */
struct instance {
  basic_proving_key<curves::bls12_381> pk;
  basic_prover_buffers<curves::bls12_381> buf;
  std::vector<fr_t> pub;
};

basic_fixed_base_engine<curves::bls12_381>* setup_engine() { return test::setup_engine<curves::bls12_381>(); }

/* Keys and witnesses are shared by the typed suites: setup dominates. */
const instance& native_instance(const std::string& spec, h_form h) {
  static std::map<std::pair<std::string, int>, std::unique_ptr<instance>> cache;
  auto& slot = cache[{spec, int(h)}];
  if (!slot) {
    auto c = circuits::make_circuit(spec);
    auto pk = setup_circuit(*c, basic_toxic_waste<curves::bls12_381>::from_seed("conformance " + spec), h, {},
                            setup_engine());
    auto in = c->parse_inputs(c->random_inputs(test::seed()));
    slot.reset(new instance{
        std::move(pk), basic_prover_buffers<curves::bls12_381>(basic_proving_key<curves::bls12_381>{}), {}});
    slot->buf = basic_prover_buffers<curves::bls12_381>(slot->pk);
    synthesize_into(slot->pk, *c, *in, slot->buf);
    slot->pub.assign(slot->buf.z.begin() + 1, slot->buf.z.begin() + 1 + slot->pk.n_public);
  }
  return *slot;
}

const instance* circom_instance(h_form h) {
  const char* stem = std::getenv("CUZK_GPU_CIRCOM");
  if (!stem || !std::filesystem::exists(std::string(stem) + ".r1cs")) return nullptr;
  static std::map<int, std::unique_ptr<instance>> cache;
  auto& slot = cache[int(h)];
  if (!slot) {
    auto f = r1cs::read_r1cs_file(std::string(stem) + ".r1cs");
    auto pk = setup(f.m, basic_toxic_waste<curves::bls12_381>::from_seed("conformance circom"), h, {}, setup_engine());
    slot.reset(new instance{
        std::move(pk), basic_prover_buffers<curves::bls12_381>(basic_proving_key<curves::bls12_381>{}), {}});
    slot->buf = basic_prover_buffers<curves::bls12_381>(slot->pk);
    slot->buf.z = r1cs::read_wtns_file(std::string(stem) + ".wtns");
    evaluate_from_coefs(slot->pk, slot->buf.z, slot->buf.a, slot->buf.b, slot->buf.c);
    slot->pub.assign(slot->buf.z.begin() + 1, slot->buf.z.begin() + 1 + slot->pk.n_public);
  }
  return slot.get();
}

/* the native cases up to 2^max_log constraints */
std::vector<std::string> native_specs() {
  std::vector<std::string> v;
  for (unsigned k : {10u, 12u, 14u, 16u, 18u, 20u})
    if (k <= max_log()) v.push_back("chain:size=" + std::to_string((1u << k) - 16));
  v.push_back("poseidon-merkle:depth=3");
  if (max_log() >= 16) v.push_back("poseidon-merkle:depth=20");
  if (max_log() >= 15) v.push_back("sha256:blocks=1");
  if (max_log() >= 18) v.push_back("sha256:blocks=4");
  return v;
}

const basic_blinding<curves::bls12_381> fixed{fr_t::from_u64(12345), fr_t::from_u64(67890)};

template <class Kind>
class EngineConformance : public ::testing::Test {
 protected:
  void SetUp() override {
    if constexpr (Kind::needs_gpu) CUZK_REQUIRE_GPU();
    engine_ = Kind::template make<curves::bls12_381>();
    reference_ = make_cpu_engine();
  }

  /* the engine's proof equals the CPU engine's, verifies, and leaves a, b, c as they were */
  void check(const instance& in, const std::string& what) {
    SCOPED_TRACE(what + " (domain 2^" + std::to_string(in.pk.log_domain()) + ", " +
                 (in.pk.h == h_form::odd_coset ? "odd coset" : "coefficients") + ")");
    const std::vector<fr_t> a = in.buf.a, b = in.buf.b, c = in.buf.c;
    const basic_proof<curves::bls12_381> want =
        prove(*reference_, in.pk, in.buf.z, in.buf.a, in.buf.b, in.buf.c, fixed);
    const basic_proof<curves::bls12_381> got = prove(*engine_, in.pk, in.buf.z, in.buf.a, in.buf.b, in.buf.c, fixed);
    EXPECT_TRUE(got.a == want.a && got.b == want.b && got.c == want.c) << engine_->name() << " proof differs";
    EXPECT_TRUE(verify(in.pk.vk(), in.pub, got));
    EXPECT_TRUE(a == in.buf.a && b == in.buf.b && c == in.buf.c) << "the engine wrote its inputs";
  }

  std::unique_ptr<basic_engine<curves::bls12_381>> engine_, reference_;
};

using engine_kinds = ::testing::Types<cpu_kind, cuda_kind>;
TYPED_TEST_SUITE(EngineConformance, engine_kinds);

TYPED_TEST(EngineConformance, NativeCircuitsMatchTheCpuBitForBit) {
  for (h_form h : {h_form::odd_coset, h_form::coefficient})
    for (const auto& spec : native_specs()) this->check(native_instance(spec, h), spec);
}

TYPED_TEST(EngineConformance, CircomCircuitMatchesTheCpuBitForBit) {
  if (!std::getenv("CUZK_GPU_CIRCOM")) GTEST_SKIP() << "CUZK_GPU_CIRCOM names no circom circuit (STEM.r1cs, STEM.wtns)";
  for (h_form h : {h_form::odd_coset, h_form::coefficient}) {
    const instance* in = circom_instance(h);
    ASSERT_NE(in, nullptr) << "CUZK_GPU_CIRCOM=" << std::getenv("CUZK_GPU_CIRCOM") << ": no .r1cs there";
    this->check(*in, "circom");
  }
}

TYPED_TEST(EngineConformance, UnsatisfiedWitnessIsRefusedInCoefficientForm) {
  const instance& good = native_instance("chain:size=1000", h_form::coefficient);
  instance bad{good.pk, good.buf, good.pub};
  bad.buf.c[7] += fr_t::one();
  EXPECT_THROW(prove(*this->engine_, bad.pk, bad.buf.z, bad.buf.a, bad.buf.b, bad.buf.c, fixed), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::groth16
