#include "job/synthesize.hpp"

#include <gtest/gtest.h>

#include <sys/resource.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "circuits/registry.hpp"
#include "groth16/evaluations.hpp"
#include "groth16/native.hpp"
#include "groth16/prover.hpp"
#include "groth16/verifier.hpp"
#include "io/snarkjs_json.hpp"
#include "job/result.hpp"
#include "r1cs/binfile.hpp"
#include "random.hpp"
#include "seed.hpp"

namespace cuzk::job {
namespace {

struct fixture {
  std::unique_ptr<circuits::basic_circuit<curves::bls12_381>> c = circuits::make_circuit("chain:size=40");
  groth16::basic_proving_key<curves::bls12_381> pk =
      groth16::setup_circuit(*c, groth16::basic_toxic_waste<curves::bls12_381>::random());
};

TEST(JobSynthesis, ANativeJobSynthesizedIntoCallerMemoryProvesAndTheStoredResultRoundTrips) {
  fixture f;
  spec s;
  s.circuit = "chain:size=40";
  s.inputs = "[" + f.c->random_inputs(test::seed()).dump() + "," + f.c->random_inputs(test::seed() + 1).dump() + "]";
  for (std::uint32_t part = 0; part < 2; ++part) {
    groth16::basic_prover_buffers<curves::bls12_381> buf(f.pk);
    auto st = synthesize(f.pk, s, part, buf.view());
    EXPECT_EQ(st.n_witness, f.pk.n_vars);
    auto pub = public_signals(f.pk, buf.view());
    auto p = groth16::prove(f.pk, buf.z, buf.a, buf.b, buf.c);
    ASSERT_TRUE(groth16::verify(f.pk.vk(), pub, p));
    auto r = std::get<basic_result<curves::bls12_381>>(
        decode_result(encode_result(basic_result<curves::bls12_381>{p, pub})));
    EXPECT_TRUE(groth16::verify(f.pk.vk(), r.public_signals, r.proof));
    EXPECT_EQ(r.public_signals, pub);
  }
}

/* Native circuits take the key's curve: a BN254 key synthesizes the circuit
   over BN254's Fr (with and without a progress watcher). */
TEST(JobSynthesis, ANativeJobOnABn254KeyProves) {
  using C = curves::bn254;
  const std::string circuit = "poseidon-merkle:depth=2";
  const auto c = circuits::make_circuit<C>(circuit);
  const auto pk = groth16::setup_circuit<C>(*c, groth16::basic_toxic_waste<C>::random());
  spec s;
  s.circuit = circuit;
  s.inputs = c->random_inputs(test::seed()).dump();
  groth16::basic_prover_buffers<C> buf(pk), watched(pk);
  synthesize<C>(pk, s, 0, buf.view());
  const auto pub = public_signals<C>(pk, buf.view());
  EXPECT_EQ(pub, c->public_values(*c->parse_inputs(nlohmann::json::parse(s.inputs))));
  EXPECT_TRUE(groth16::verify<C>(pk.vk(), pub, groth16::prove<C>(pk, buf.z, buf.a, buf.b, buf.c)));
  progress p;
  synthesize<C>(pk, s, 0, watched.view(), &p);
  EXPECT_EQ(watched.z, buf.z);
  EXPECT_EQ(watched.a, buf.a);
  // a value below BLS12-381's r but not below BN254's is an input error
  s.inputs = R"({"leaf": "21888242871839275222246405745257275088548364400416034343698204186575808495617",
                 "index": 0, "path": ["1", "2"]})";
  EXPECT_THROW(synthesize<C>(pk, s, 0, buf.view()), circuits::circuit_error);
}

TEST(JobSynthesis, WrongInputsAndMissingPartitionsAreJobErrors) {
  fixture f;
  groth16::basic_prover_buffers<curves::bls12_381> buf(f.pk);
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
  auto pk = groth16::setup_circuit(*c, groth16::basic_toxic_waste<curves::bls12_381>::random());
  spec s;
  s.circuit = circuit;
  s.inputs = c->random_inputs(test::seed()).dump();
  groth16::basic_prover_buffers<curves::bls12_381> plain(pk), watched(pk);
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
  groth16::basic_prover_buffers<curves::bls12_381> buf(f.pk);
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
  groth16::basic_prover_buffers<curves::bls12_381> buf(f.pk);
  spec s{"", "chain:size=40", f.c->random_inputs(3).dump(), "", "", std::nullopt};
  synthesize(f.pk, s, 0, buf.view());
  auto bytes = encode_result(basic_result<curves::bls12_381>{groth16::prove(f.pk, buf.z, buf.a, buf.b, buf.c),
                                                             public_signals(f.pk, buf.view())});
  EXPECT_EQ(bytes.size(), result_bytes_for(curves::curve_id::bls12_381, f.pk.n_public));
  auto shorter = bytes;
  shorter.pop_back();
  EXPECT_THROW(decode_result(shorter), job_error);
  auto longer = bytes;
  longer.push_back(0);
  EXPECT_THROW(decode_result(longer), job_error);
  auto nameless = bytes;
  nameless[0] = 7;  // no curve
  EXPECT_THROW(decode_result(nameless), job_error);
}

/* A BN254 result keeps its curve: it decodes as BN254's and becomes snarkjs
   JSON that says bn128, and verifies. */
TEST(JobResult, ABn254ResultRoundTripsWithItsCurve) {
  using C = curves::bn254;
  auto rng = test::rng(30);
  r1cs::basic_matrices<C> m;
  m.n_wires = 4;
  m.n_public = 1;
  m.a.push({2, ff::fr<C>::one()});
  m.b.push({3, ff::fr<C>::one()});
  m.c.push({1, ff::fr<C>::one()});
  for (auto* r : {&m.a, &m.b, &m.c}) r->end_row();
  const auto pk = groth16::setup(m, groth16::basic_toxic_waste<C>::random());
  std::vector<ff::fr<C>> z = {ff::fr<C>::one(), {}, test::random_fr<C>(rng), test::random_fr<C>(rng)};
  z[1] = z[2] * z[3];
  std::vector<ff::fr<C>> a(pk.domain_size), b(pk.domain_size), c(pk.domain_size);
  groth16::evaluate_from_coefs<C>(pk, z, a, b, c);
  const basic_result<C> r{groth16::prove(pk, z, a, b, c), {z[1]}};
  ASSERT_TRUE(groth16::verify<C>(pk.vk(), r.public_signals, r.proof));
  const auto bytes = encode_result(r);
  EXPECT_EQ(bytes.size(), result_bytes_for(curves::curve_id::bn254, 1));
  EXPECT_LT(bytes.size(), result_bytes_for(curves::curve_id::bls12_381, 1));
  const auto back = std::get<basic_result<C>>(decode_result(bytes));
  EXPECT_EQ(back.proof.a, r.proof.a);
  EXPECT_EQ(back.proof.b, r.proof.b);
  EXPECT_EQ(back.proof.c, r.proof.c);
  EXPECT_EQ(back.public_signals, r.public_signals);
  const auto j = result_to_json(bytes);
  EXPECT_NE(j.proof.find("\"bn128\""), std::string::npos) << j.proof;
  EXPECT_EQ(io::proof_from_json<C>(nlohmann::json::parse(j.proof)).a, r.proof.a);
}

// A circom job's .r1cs is checked against the key from its header before the
// worker reads it (issue 19): a sparse gigabyte claiming 2^30 / 12
// constraints is an input error naming the number and the bound, read in a
// few preads; the real file still synthesizes to a proof.
TEST(JobSynthesis, ACircomR1csBeyondTheKeyIsAnInputErrorBeforeItIsRead) {
  const auto dir = std::filesystem::path(CUZK_R1CS_TEST_DATA);
  const auto m = r1cs::read_r1cs_file(dir / "chain4.r1cs").m;
  const auto pk = groth16::setup(m, groth16::basic_toxic_waste<curves::bls12_381>::random());
  const auto tmp = std::filesystem::temp_directory_path() / ("cuzk-job-poison-" + std::to_string(::getpid()));
  std::filesystem::create_directories(tmp);
  groth16::basic_prover_buffers<curves::bls12_381> buf(pk);
  spec s;
  s.wtns = (dir / "chain4.wtns").string();
  s.r1cs = (dir / "chain4.r1cs").string();
  synthesize(pk, s, 0, buf.view());
  EXPECT_TRUE(groth16::verify(pk.vk(), public_signals(pk, buf.view()), groth16::prove(pk, buf.z, buf.a, buf.b, buf.c)));

  constexpr std::uint64_t gib = std::uint64_t{1} << 30;
  r1cs::binfile_writer w("r1cs", 1, 3);
  w.begin_section(1);
  w.u32(32);
  w.raw(r1cs::fr_modulus_le());
  for (std::uint32_t v : {pk.n_vars, pk.n_public, 0u, 0u}) w.u32(v);
  w.u64(pk.n_vars);
  w.u32(static_cast<std::uint32_t>(gib / 12));
  w.end_section();
  w.begin_section(3);
  for (std::uint64_t i = 0; i < pk.n_vars; ++i) w.u64(i);
  w.end_section();
  w.u32(2);
  w.u64(gib);
  const auto head = std::move(w).take();
  s.r1cs = (tmp / "many.r1cs").string();
  std::ofstream(s.r1cs, std::ios::binary)
      .write(reinterpret_cast<const char*>(head.data()), static_cast<std::streamsize>(head.size()));
  std::filesystem::resize_file(s.r1cs, head.size() + gib);
  rusage before{}, after{};
  ::getrusage(RUSAGE_SELF, &before);
  std::string why;
  try {
    synthesize(pk, s, 0, buf.view());
  } catch (const job_error& e) {
    why = e.what();
  }
  ::getrusage(RUSAGE_SELF, &after);
  std::filesystem::remove_all(tmp);
  EXPECT_EQ(why, s.r1cs + ": r1cs: the header declares 89478485 constraints, more than the " +
                     std::to_string(pk.domain_size - pk.n_public - 1) + " the key's domain holds");
  EXPECT_LT(after.ru_maxrss - before.ru_maxrss, 64 * 1024) << "KiB of peak memory for a file that claims a gigabyte";
}

}  // namespace
}  // namespace cuzk::job
