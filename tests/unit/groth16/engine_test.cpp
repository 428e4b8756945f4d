// The orchestrator over an explicit engine: the same proof as the default
// path, a, b, c left as they were, the split and the H plan it hands over.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "groth16/engine.hpp"
#include "groth16/evaluations.hpp"
#include "groth16/native.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "poly/domain.hpp"
#include "random_circuit.hpp"
#include "seed.hpp"

namespace cuzk::groth16 {
namespace {

basic_prover_buffers<curves::bls12_381> evaluations_of(const basic_proving_key<curves::bls12_381>& pk,
                                                       const test::random_instance<>& inst) {
  basic_prover_buffers<curves::bls12_381> buf(pk);
  buf.z = inst.z;
  const auto n = inst.m.n_constraints();
  r1cs::evaluate(inst.m, inst.z, std::span(buf.a).first(n), std::span(buf.b).first(n), std::span(buf.c).first(n));
  fill_public_rows(n, pk.n_public, buf.z, buf.a, buf.b, buf.c);
  return buf;
}

std::vector<fr_t> public_of(const test::random_instance<>& inst) {
  return {inst.z.begin() + 1, inst.z.begin() + 1 + inst.m.n_public};
}

/* Passes everything to the CPU engine after checking what the orchestrator
   handed over; h_top_bias corrupts the Z | AB − C witness. */
class checking_engine final : public basic_engine<curves::bls12_381> {
 public:
  std::string_view name() const override { return "checking"; }
  basic_msm_sums<curves::bls12_381> compute(const basic_engine_input<curves::bls12_381>& in,
                                            prove_timings& tm) override {
    ++calls;
    check_view(in.z, in.z_split, 0);
    check_view(in.z, in.c_split, in.pk.n_public + 1);
    EXPECT_EQ(in.plan.h_len, in.pk.h_query.size());
    basic_msm_sums<curves::bls12_381> s = inner->compute(in, tm);
    s.h_top += h_top_bias;
    return s;
  }
  int calls = 0;
  fr_t h_top_bias = fr_t::zero();

 private:
  /* ones and others together are exactly the indices >= first with z_i ≠ 0 */
  static void check_view(std::span<const fr_t> z, const split_view& v, std::uint32_t first) {
    EXPECT_EQ(v.first, first);
    ASSERT_EQ(v.others.size(), v.other_scalars.size());
    std::size_t o = 0, r = 0;
    for (std::uint32_t i = first; i < z.size(); ++i) {
      if (z[i].is_zero()) continue;
      if (z[i].is_one()) {
        ASSERT_LT(o, v.ones.size());
        EXPECT_EQ(v.ones[o++], i);
      } else {
        ASSERT_LT(r, v.others.size());
        EXPECT_EQ(v.others[r], i);
        EXPECT_EQ(v.other_scalars[r++], z[i].to_canonical());
      }
    }
    EXPECT_EQ(o, v.ones.size());
    EXPECT_EQ(r, v.others.size());
  }
  std::unique_ptr<basic_engine<curves::bls12_381>> inner = make_cpu_engine();
};

class EngineTest : public ::testing::TestWithParam<h_form> {};

TEST_P(EngineTest, ExplicitCpuEngineGivesTheDefaultProofAndLeavesABCUnchanged) {
  auto rng = test::rng(21);
  auto inst = test::make_random_instance(rng, 150, 3, 60, 0.6);
  auto pk = setup(inst.m, basic_toxic_waste<curves::bls12_381>::random(), GetParam());
  const auto buf = evaluations_of(pk, inst);
  const auto a = buf.a, b = buf.b, c = buf.c;
  const basic_blinding<curves::bls12_381> rs{test::random_fr(rng), test::random_fr(rng)};

  auto e = make_cpu_engine(2);
  EXPECT_EQ(e->name(), "cpu");
  prove_timings tm;
  const basic_proof<curves::bls12_381> p1 = prove(*e, pk, buf.z, buf.a, buf.b, buf.c, rs, &tm);
  EXPECT_EQ(buf.a, a);
  EXPECT_EQ(buf.b, b);
  EXPECT_EQ(buf.c, c);
  const basic_proof<curves::bls12_381> p2 = prove(pk, buf.z, buf.a, buf.b, buf.c, rs);
  EXPECT_EQ(p1.a, p2.a);
  EXPECT_EQ(p1.b, p2.b);
  EXPECT_EQ(p1.c, p2.c);
  EXPECT_TRUE(verify(pk.vk(), public_of(inst), p1));

  /* the MSM phase holds the G1 MSMs one after the other, and the G2 one */
  EXPECT_GT(tm.total, 0);
  EXPECT_GE(tm.total, tm.split + tm.ntt + tm.msm + tm.assemble);
  EXPECT_GE(tm.msm, tm.msm_a + tm.msm_b_g1 + tm.msm_l + tm.msm_h);
  EXPECT_GE(tm.msm, tm.msm_b_g2);
  EXPECT_GT(tm.msm_b_g2, 0);
  const phase_timings r = tm.reported(0.25);  // what the job record keeps: microseconds
  EXPECT_EQ(r[timing::total], static_cast<std::uint64_t>(std::llround(tm.total * 1e6)));
  EXPECT_EQ(r[timing::verify], 250000u);
  EXPECT_EQ(r[timing::h2d], 0u) << "the CPU copies nothing to a device";

  /* the engine's scratch, reused for a smaller domain and then this one again */
  auto small = test::make_random_instance(rng, 10, 1, 4, 0.5);
  auto pk_small = setup(small.m, basic_toxic_waste<curves::bls12_381>::random(), GetParam());
  const auto buf_small = evaluations_of(pk_small, small);
  EXPECT_TRUE(
      verify(pk_small.vk(), public_of(small), prove(*e, pk_small, buf_small.z, buf_small.a, buf_small.b, buf_small.c)));
  const basic_proof<curves::bls12_381> p3 = prove(*e, pk, buf.z, buf.a, buf.b, buf.c, rs);
  EXPECT_EQ(p3.a, p1.a);
  EXPECT_EQ(p3.c, p1.c);
}

TEST_P(EngineTest, OrchestratorHandsTheSplitOfZAndTheTailFromThePrivateInputs) {
  auto rng = test::rng(22);
  auto inst = test::make_random_instance(rng, 60, 2, 30, 0.7);
  auto pk = setup(inst.m, basic_toxic_waste<curves::bls12_381>::random(), GetParam());
  const auto buf = evaluations_of(pk, inst);
  checking_engine e;
  EXPECT_TRUE(verify(pk.vk(), public_of(inst), prove(e, pk, buf.z, buf.a, buf.b, buf.c)));
  EXPECT_EQ(e.calls, 1);
}

/* an engine reporting Z ∤ AB − C (a coefficient-form witness that does not
   satisfy the constraints) gets the prover's usual error */
TEST_P(EngineTest, NonZeroTopCoefficientIsRefused) {
  auto rng = test::rng(23);
  auto inst = test::make_random_instance(rng, 20, 1, 3);
  auto pk = setup(inst.m, basic_toxic_waste<curves::bls12_381>::random(), GetParam());
  const auto buf = evaluations_of(pk, inst);
  checking_engine e;
  e.h_top_bias = fr_t::one();
  try {
    prove(e, pk, buf.z, buf.a, buf.b, buf.c);
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& ex) {
    EXPECT_NE(std::string(ex.what()).find("Z does not divide AB"), std::string::npos) << ex.what();
  }
}

TEST_P(EngineTest, HPlanFollowsTheKey) {
  auto rng = test::rng(24);
  auto inst = test::make_random_instance(rng, 40, 1, 3);
  auto pk = setup(inst.m, basic_toxic_waste<curves::bls12_381>::random(), GetParam());
  const basic_h_plan<curves::bls12_381> p = basic_h_plan<curves::bls12_381>::for_key(pk);
  const std::uint64_t n = pk.domain_size;
  EXPECT_EQ(std::uint64_t(1) << p.log_n, n);
  EXPECT_EQ(p.family, poly::root_family::snarkjs);
  EXPECT_EQ(p.h_len, pk.h_query.size());
  if (GetParam() == h_form::odd_coset) {
    EXPECT_EQ(p.convention, poly::h_convention::odd_coset);
    EXPECT_EQ(p.h_len, n);
    EXPECT_EQ(p.shift.pow(n), -fr_t::one());  // ζ^n = −1
    EXPECT_EQ(p.shift.sqr(), poly::basic_domain<curves::bls12_381>(p.log_n, poly::root_family::snarkjs).omega());
  } else {
    EXPECT_EQ(p.convention, poly::h_convention::coefficients);
    EXPECT_EQ(p.h_len, n - 1);
    EXPECT_EQ(p.shift, fr_t::from_u64(7));
    EXPECT_EQ(p.z_inv * (p.shift.pow(n) - fr_t::one()), fr_t::one());
  }
}

INSTANTIATE_TEST_SUITE_P(BothHForms, EngineTest, ::testing::Values(h_form::odd_coset, h_form::coefficient),
                         [](const auto& info) { return info.param == h_form::odd_coset ? "OddCoset" : "Coefficient"; });

TEST(ProveTimingsTest, ReportedPhasesAreMicrosecondsWithCpuPrepTheHostWorkAroundTheKernels) {
  prove_timings t;
  t.h2d = 1e-3, t.ntt = 2e-3, t.msm_h = 3e-3, t.msm_l = 4e-3, t.msm_a = 5e-3, t.msm_b_g1 = 6e-3, t.msm_b_g2 = 7e-3;
  t.batch_add = 8e-3, t.split = 4e-3, t.assemble = 5e-3, t.total = 55e-3, t.msm = 30e-3, t.wait = 1;
  const phase_timings r = t.reported(10e-3);
  EXPECT_EQ(r.us,
            (std::array<std::uint64_t, n_timings>{1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000, 10000, 55000}));
  t.ntt = std::nan(""), t.msm_h = -1, t.msm_l = 1e12;  // nonsense: none measured
  const phase_timings bad = t.reported(0);
  EXPECT_EQ(bad[timing::ntt], 0u);
  EXPECT_EQ(bad[timing::msm_h], 0u);
  EXPECT_EQ(bad[timing::msm_l], 0u);
  EXPECT_EQ(bad[timing::verify], 0u);
}

TEST(SplitViewTest, TailStartsAtTheFirstIndexAtOrAboveFirst) {
  auto rng = test::rng(25);
  std::vector<fr_t> z(500);
  for (auto& x : z) {
    const auto u = rng() % 3;
    x = u == 0 ? fr_t::zero() : u == 1 ? fr_t::one() : test::random_fr(rng);
  }
  const auto s = msm::split_scalars(z);
  for (std::uint32_t first : {0u, 1u, 7u, 250u, 499u, 500u}) {
    const split_view v = split_view::of(s, first);
    EXPECT_EQ(v.first, first);
    EXPECT_EQ(v.ones.size(),
              std::size_t(std::count_if(z.begin() + first, z.end(), [](const fr_t& x) { return x.is_one(); })));
    EXPECT_TRUE(v.ones.empty() || v.ones.front() >= first);
    EXPECT_TRUE(v.others.empty() || v.others.front() >= first);
    EXPECT_EQ(v.others.size(), v.other_scalars.size());
    EXPECT_EQ(v.ones.size() + v.others.size(),
              std::size_t(std::count_if(z.begin() + first, z.end(), [](const fr_t& x) { return !x.is_zero(); })));
    if (!v.others.empty()) {
      EXPECT_EQ(v.other_scalars.front(), z[v.others.front()].to_canonical());
    }
  }
}

}  // namespace
}  // namespace cuzk::groth16
