#include "job/synthesize.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "circuits/registry.hpp"
#include "groth16/native.hpp"
#include "groth16/prover.hpp"
#include "groth16/verifier.hpp"
#include "job/result.hpp"
#include "seed.hpp"

namespace cuzk::job {
namespace {

struct fixture {
  std::unique_ptr<circuits::circuit> c = circuits::make_circuit("chain:size=40");
  groth16::proving_key pk = groth16::setup_circuit(*c, groth16::toxic_waste::random());
};

TEST(JobSynthesis, ANativeJobSynthesizedIntoCallerMemoryProvesAndTheStoredResultRoundTrips) {
  fixture f;
  spec s;
  s.circuit = "chain:size=40";
  s.inputs = "[" + f.c->random_inputs(test::seed()).dump() + "," + f.c->random_inputs(test::seed() + 1).dump() + "]";
  for (std::uint32_t part = 0; part < 2; ++part) {
    groth16::prover_buffers buf(f.pk);
    auto st = synthesize(f.pk, s, part, buf.view());
    EXPECT_EQ(st.n_witness, f.pk.n_vars);
    auto pub = public_signals(f.pk, buf.view());
    auto p = groth16::prove(f.pk, buf.z, buf.a, buf.b, buf.c);
    ASSERT_TRUE(groth16::verify(f.pk.vk(), pub, p));
    auto r = decode_result(encode_result({p, pub}));
    EXPECT_TRUE(groth16::verify(f.pk.vk(), r.public_signals, r.proof));
    EXPECT_EQ(r.public_signals, pub);
  }
}

TEST(JobSynthesis, WrongInputsAndMissingPartitionsAreJobErrors) {
  fixture f;
  groth16::prover_buffers buf(f.pk);
  spec s;
  s.circuit = "chain:size=40";
  s.inputs = "[" + f.c->random_inputs(1).dump() + "]";
  EXPECT_THROW(synthesize(f.pk, s, 1, buf.view()), job_error);
  s.inputs = "{nope";
  EXPECT_THROW(synthesize(f.pk, s, 0, buf.view()), job_error);
  spec w;
  w.wtns = "/nonexistent/w.wtns";
  EXPECT_THROW(synthesize(f.pk, w, 0, buf.view()), job_error);
}

TEST(JobSynthesis, ProgressCountsWhatANativeSynthesisWritesWithoutChangingIt) {
  const std::string circuit = "chain:size=9000";  // more than progress::stride rows
  auto c = circuits::make_circuit(circuit);
  auto pk = groth16::setup_circuit(*c, groth16::toxic_waste::random());
  spec s;
  s.circuit = circuit;
  s.inputs = c->random_inputs(test::seed()).dump();
  groth16::prover_buffers plain(pk), watched(pk);
  auto st = synthesize(pk, s, 0, plain.view());
  progress p;
  EXPECT_EQ(p.count(), 0u);
  EXPECT_EQ(synthesize(pk, s, 0, watched.view(), &p).n_constraints, st.n_constraints);
  EXPECT_EQ(watched.a, plain.a);
  EXPECT_EQ(watched.b, plain.b);
  EXPECT_EQ(watched.c, plain.c);
  EXPECT_EQ(watched.z, plain.z);
  // Every constraint and every allocated value, published at the end.
  EXPECT_GE(p.count(), st.n_constraints + pk.n_vars - 1);
  EXPECT_FALSE(p.in_opaque_phase());
}

TEST(JobSynthesis, ProgressMarksOpaquePhasesAndLeavesThemOnErrors) {
  fixture f;
  groth16::prover_buffers buf(f.pk);
  spec w;
  w.wtns = "/nonexistent/w.wtns";
  progress p;
  EXPECT_THROW(synthesize(f.pk, w, 0, buf.view(), &p), job_error);
  EXPECT_FALSE(p.in_opaque_phase());
  p.opaque(true);
  EXPECT_TRUE(p.in_opaque_phase());
  p.opaque(false);
  EXPECT_FALSE(p.in_opaque_phase());
}

TEST(JobResult, TruncatedOrPaddedResultsAreRefused) {
  fixture f;
  groth16::prover_buffers buf(f.pk);
  spec s{"", "chain:size=40", f.c->random_inputs(3).dump(), "", "", std::nullopt};
  synthesize(f.pk, s, 0, buf.view());
  auto bytes = encode_result({groth16::prove(f.pk, buf.z, buf.a, buf.b, buf.c), public_signals(f.pk, buf.view())});
  auto shorter = bytes;
  shorter.pop_back();
  EXPECT_THROW(decode_result(shorter), job_error);
  auto longer = bytes;
  longer.push_back(0);
  EXPECT_THROW(decode_result(longer), job_error);
}

}  // namespace
}  // namespace cuzk::job
