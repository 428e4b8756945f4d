// Engine conformance on random circuits (tests/unit/groth16/random_circuit.hpp)
// of both curves: with the same fixed blinding (random each run), every
// engine's proof is byte-identical to the CPU engine's and verifies, in both
// H conventions, for witnesses with many zeros and ones (the 0/1 split) and
// domains of 2^10 and 2^14, and on the GPU 2^16 (2^18 with CUZK_GPU_MAX_LOG
// >= 18). The CUDA engine also proves from a key whose points stay in its
// .zkey bytes (64-byte G1 and 128-byte G2 points on BN254), with its bases
// streamed instead of resident, and from one context holding keys of both
// curves. CudaShifted keeps shifted copies of the MSM bases (cuda/msm/msm.hpp).
// CudaWorkerLanes proves on two lanes of one worker at once (cuda::make_worker).
#include <gtest/gtest.h>
#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "curves_under_test.hpp"
#include "engine_kinds.hpp"
#include "gpu_test.hpp"
#include "groth16/evaluations.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"
#include "groth16/verifier.hpp"
#include "io/zkey.hpp"
#include "random_circuit.hpp"
#include "seed.hpp"

namespace cuzk::groth16 {
namespace {

/* One proving instance of curve C: its key, witness, a/b/c and public signals. */
template <class C>
struct instance {
  basic_proving_key<C> pk;
  std::vector<ff::fr<C>> z, a, b, c, pub;
};

/* A random circuit of about 2^log_n constraints (its domain is 2^log_n), a
   third of the free inputs 0 or 1; keys and witnesses are shared by the
   suites (setup dominates). */
template <class C>
const instance<C>& random_instance(unsigned log_n, h_form h) {
  static std::map<std::pair<unsigned, int>, std::unique_ptr<instance<C>>> cache;
  auto& slot = cache[{log_n, int(h)}];
  if (slot) return *slot;
  auto rng = cuzk::test::rng(1000 + 2 * log_n + unsigned(h));
  const std::uint32_t n_public = 1 + std::uint32_t(rng() % 4), n_free = 40 + std::uint32_t(rng() % 200);
  const std::uint32_t n_constraints = (1u << log_n) - n_public - 1 - std::uint32_t(rng() % 64);
  auto inst = cuzk::test::make_random_instance<C>(rng, n_constraints, n_public, n_free, 0.35);
  slot = std::make_unique<instance<C>>();
  slot->pk = setup<C>(inst.m, basic_toxic_waste<C>::random(), h, {}, cuzk::test::setup_engine<C>());
  const std::size_t n = slot->pk.domain_size, m = inst.m.n_constraints();
  slot->z = inst.z;
  slot->a.assign(n, ff::fr<C>::zero());
  slot->b.assign(n, ff::fr<C>::zero());
  slot->c.assign(n, ff::fr<C>::zero());
  r1cs::evaluate(inst.m, std::span<const ff::fr<C>>(slot->z), std::span(slot->a).first(m), std::span(slot->b).first(m),
                 std::span(slot->c).first(m));
  fill_public_rows<C>(m, slot->pk.n_public, slot->z, slot->a, slot->b, slot->c);
  slot->pub.assign(slot->z.begin() + 1, slot->z.begin() + 1 + n_public);
  return *slot;
}

/* 2^10, 2^14; on the GPU also 2^16 (and 2^18 with CUZK_GPU_MAX_LOG >= 18) */
std::vector<unsigned> sizes(bool gpu) {
  std::vector<unsigned> v{10, 14};
  if (gpu) v.push_back(16);
  if (gpu && cuzk::test::max_log() >= 18) v.push_back(18);
  return v;
}

template <class C>
basic_blinding<C> random_blinding(std::uint64_t salt) {
  auto rng = cuzk::test::rng(salt);
  return {ff::fr<C>::random(rng), ff::fr<C>::random(rng)};
}

/* engine's proof of in (its key: pk) equals the CPU engine's with the same blinding and verifies */
template <class C>
void expect_same_proof(basic_engine<C>& engine, const instance<C>& in, const basic_proving_key<C>& pk,
                       const basic_blinding<C>& rs) {
  SCOPED_TRACE(std::string(curves::display_name(C::id)) + ", domain 2^" + std::to_string(pk.log_domain()) + ", " +
               (pk.h == h_form::odd_coset ? "odd coset" : "coefficients"));
  auto reference = make_cpu_engine<C>();
  const auto a = in.a, b = in.b, c = in.c;
  const basic_proof<C> want = prove<C>(*reference, in.pk, in.z, in.a, in.b, in.c, rs);
  const basic_proof<C> got = prove<C>(engine, pk, in.z, in.a, in.b, in.c, rs);
  EXPECT_TRUE(got.a == want.a && got.b == want.b && got.c == want.c) << engine.name() << " proof differs";
  EXPECT_TRUE(verify(in.pk.vk(), std::span<const ff::fr<C>>(in.pub), got));
  EXPECT_TRUE(a == in.a && b == in.b && c == in.c) << "the engine wrote its inputs";
}

/* (curve, engine kind) */
template <class C, class Kind>
struct config {
  using curve = C;
  using kind = Kind;
};
using configs =
    ::testing::Types<config<curves::bls12_381, cuzk::test::cpu_kind>, config<curves::bls12_381, cuzk::test::cuda_kind>,
                     config<curves::bls12_381, cuzk::test::cuda_shifted_kind>,
                     config<curves::bn254, cuzk::test::cpu_kind>, config<curves::bn254, cuzk::test::cuda_kind>,
                     config<curves::bn254, cuzk::test::cuda_shifted_kind>>;
/* Bls12_381_Cpu, ..., Bn254_Cuda */
struct config_names {
  template <class T>
  static std::string GetName(int) {
    return std::string(cuzk::test::curve_name<typename T::curve>) + "_" + T::kind::name;
  }
};

template <class T>
class RandomCircuitConformance : public ::testing::Test {
 protected:
  using C = typename T::curve;
  void SetUp() override {
    if constexpr (T::kind::needs_gpu) CUZK_REQUIRE_GPU();
    engine_ = T::kind::template make<C>();
  }
  std::unique_ptr<basic_engine<C>> engine_;
};
TYPED_TEST_SUITE(RandomCircuitConformance, configs, config_names);

TYPED_TEST(RandomCircuitConformance, ProofsMatchTheCpuBitForBitInBothConventions) {
  using C = typename TypeParam::curve;
  const auto rs = random_blinding<C>(77);
  for (h_form h : {h_form::odd_coset, h_form::coefficient})
    for (unsigned log_n : sizes(TypeParam::kind::needs_gpu)) {
      const auto& in = random_instance<C>(log_n, h);
      ASSERT_EQ(in.pk.log_domain(), log_n);
      expect_same_proof<C>(*this->engine_, in, in.pk, rs);
    }
}

TYPED_TEST(RandomCircuitConformance, UnsatisfiedWitnessIsRefusedInCoefficientForm) {
  using C = typename TypeParam::curve;
  instance<C> bad = random_instance<C>(10, h_form::coefficient);
  bad.c[7] += ff::fr<C>::one();
  EXPECT_THROW(prove<C>(*this->engine_, bad.pk, bad.z, bad.a, bad.b, bad.c, random_blinding<C>(78)),
               std::invalid_argument);
}

/* A key whose points are only in its .zkey bytes (io::read_zkey_mapped without
   decoding), as a server's SRS region holds them: the device uploads the
   sections as they are. Resident, then streamed (a context with no budget). */
template <class C>
class CudaMappedKey : public ::testing::Test {};
TYPED_TEST_SUITE(CudaMappedKey, cuzk::test::curves_under_test, cuzk::test::curve_names);

/* Bytes in an anonymous mapping of their own, as a zkey file's or an SRS
   region's are: the registry pins whole pages, which on the heap would take in
   neighbouring allocations (and a later copy from one of those, partly inside
   the pinned range, fails with cudaErrorInvalidValue). */
struct anonymous_mapping {
  std::span<std::uint8_t> bytes;
  ~anonymous_mapping() { ::munmap(bytes.data(), bytes.size()); }
};
std::shared_ptr<const anonymous_mapping> own_mapping(const std::vector<std::uint8_t>& v) {
  void* p = ::mmap(nullptr, v.size(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::runtime_error("mmap of " + std::to_string(v.size()) + " bytes failed");
  auto m = std::make_shared<anonymous_mapping>();
  m->bytes = {static_cast<std::uint8_t*>(p), v.size()};
  std::copy(v.begin(), v.end(), m->bytes.begin());
  return m;
}

TYPED_TEST(CudaMappedKey, ResidentAndStreamedBasesGiveTheCpuProof) {
  CUZK_REQUIRE_GPU();
  using C = TypeParam;
  const auto rs = random_blinding<C>(79);
  for (h_form h : {h_form::odd_coset, h_form::coefficient}) {
    const auto& in = random_instance<C>(14, h);
    const auto bytes = own_mapping(io::write_zkey(in.pk));
    const auto mapped = io::read_zkey_mapped<C>(bytes->bytes, bytes, false);
    ASSERT_FALSE(mapped.points_decoded());
    ASSERT_EQ(mapped.mapped.a.size(), in.pk.a.size() * basic_proving_key<C>::g1_bytes);
    ASSERT_EQ(mapped.mapped.b2.size(), in.pk.b2.size() * basic_proving_key<C>::g2_bytes);

    auto resident = cuda::make_engine<C>();
    expect_same_proof<C>(*resident, in, mapped, rs);
    EXPECT_FALSE(resident->streamed());

    cuda::context_options co;
    co.workers = 1;
    co.budget = 1;  // no key fits: every proof streams its bases
    auto ctx = std::make_shared<cuda::device_context>(co, std::make_shared<cuda::host_registry>());
    auto streamed = cuda::make_engine<C>(ctx);
    expect_same_proof<C>(*streamed, in, mapped, rs);
    EXPECT_TRUE(streamed->streamed());
    expect_same_proof<C>(*streamed, in, in.pk, rs);  // streamed from the decoded points
  }
}

/* One device context, the workers of both curves: their keys resident side by side. */
TEST(CudaContext, HoldsKeysOfBothCurvesAtOnce) {
  CUZK_REQUIRE_GPU();
  using bls = curves::bls12_381;
  using bn = curves::bn254;
  cuda::context_options co;
  co.workers = 2;
  auto ctx = std::make_shared<cuda::device_context>(co, std::make_shared<cuda::host_registry>());
  auto e1 = cuda::make_engine<bls>(ctx);
  auto e2 = cuda::make_engine<bn>(ctx);
  const auto& k1 = random_instance<bls>(12, h_form::odd_coset);
  const auto& k2 = random_instance<bn>(12, h_form::coefficient);
  for (int round = 0; round < 2; ++round) {
    expect_same_proof<bls>(*e1, k1, k1.pk, random_blinding<bls>(80 + round));
    expect_same_proof<bn>(*e2, k2, k2.pk, random_blinding<bn>(82 + round));
    EXPECT_FALSE(e1->streamed());
    EXPECT_FALSE(e2->streamed());
  }
  const auto st = ctx->status();
  EXPECT_EQ(st.resident_keys.size(), 2u);
  /* the context plans shifted copies by default, from the budget left */
  ASSERT_EQ(st.resident_shifts.size(), 2u);
  EXPECT_NE(st.resident_shifts[0], "none");
  EXPECT_GT(st.shifted_bytes, 0u);
  EXPECT_EQ(st.uploads, 2u);  // each key once, whatever the other curve's key does
}

}  // namespace
}  // namespace cuzk::groth16

namespace cuzk::groth16 {
namespace {

/* One worker's lanes (cuda::make_worker) on threads of their own, as the
   server runs them: a proof copies its inputs into the buffers while the
   other lane's MSMs run, the curves take turns on the worker, and proofs
   stopped while they wait (staged or not) leave the next ones right. Every
   proof that ends is the CPU's. */
TEST(CudaWorkerLanes, ProofsOnTwoLanesOfOneWorkerAreTheCpuProofs) {
  CUZK_REQUIRE_GPU();
  using bls = curves::bls12_381;
  using bn = curves::bn254;
  cuda::context_options co;
  co.workers = 1;
  auto ctx = std::make_shared<cuda::device_context>(co, std::make_shared<cuda::host_registry>());
  auto w = cuda::make_worker(ctx, 2);
  auto& bls_lanes = std::get<cuda::lanes_of<bls>>(w);
  auto& bn_lanes = std::get<cuda::lanes_of<bn>>(w);
  ASSERT_EQ(bls_lanes.size(), 2u);
  ASSERT_EQ(bn_lanes.size(), 2u);
  /* same domains (staged into the buffers as they are), a smaller one, and a larger one (its copy waits) */
  const std::vector<const instance<bls>*> ins{
      &random_instance<bls>(16, h_form::odd_coset), &random_instance<bls>(16, h_form::coefficient),
      &random_instance<bls>(14, h_form::coefficient), &random_instance<bls>(16, h_form::odd_coset)};
  const auto& small_bn = random_instance<bn>(14, h_form::coefficient);
  const auto rs = random_blinding<bls>(90);
  const auto rs_bn = random_blinding<bn>(91);
  auto cpu = make_cpu_engine<bls>();
  std::vector<basic_proof<bls>> want;
  for (const auto* in : ins) want.push_back(prove<bls>(*cpu, in->pk, in->z, in->a, in->b, in->c, rs));
  const basic_proof<bn> want_bn =
      prove<bn>(*make_cpu_engine<bn>(), small_bn.pk, small_bn.z, small_bn.a, small_bn.b, small_bn.c, rs_bn);

  std::atomic<int> wrong{0}, done{0}, stopped{0}, waited{0};
  auto lane = [&](unsigned l, unsigned rounds) {
    for (unsigned r = 0; r < rounds; ++r)
      for (std::size_t i = l; i < ins.size(); i += 2) {
        const auto& in = *ins[(i + r) % ins.size()];
        const auto& expect = want[(i + r) % ins.size()];
        prove_timings tm;
        const auto p = prove<bls>(*bls_lanes[l], in.pk, in.z, in.a, in.b, in.c, rs, &tm);
        wrong += !(p.a == expect.a && p.b == expect.b && p.c == expect.c);
        waited += tm.wait > 1e-3;
        ++done;
      }
  };
  std::thread t0(lane, 0, 3), t1(lane, 1, 3);
  /* BN254 on lane 1's other engine: it owns the worker between the BLS12-381 proofs (other buffers) */
  std::thread t2([&] {
    for (int r = 0; r < 3; ++r) {
      const auto p = prove<bn>(*bn_lanes[1], small_bn.pk, small_bn.z, small_bn.a, small_bn.b, small_bn.c, rs_bn);
      wrong += !(p.a == want_bn.a && p.b == want_bn.b && p.c == want_bn.c);
    }
  });
  t0.join(), t1.join(), t2.join();
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(done, 12);
  EXPECT_GT(waited, 0) << "no proof waited for the other lane's: the lanes never overlapped";

  /* lane 1's proofs stopped after 0-8 ms (before the gate, staged, or running) while lane 0 proves */
  for (int k = 0; k < 8; ++k) {
    std::atomic<bool> stop{false};
    const auto& a = *ins[0];
    const auto& b = *ins[1 + k % 2];
    std::thread ta([&] {
      const auto p = prove<bls>(*bls_lanes[0], a.pk, a.z, a.a, a.b, a.c, rs);
      wrong += !(p.a == want[0].a && p.b == want[0].b && p.c == want[0].c);
    });
    std::thread tb([&] {
      try {
        const auto p = prove<bls>(*bls_lanes[1], b.pk, b.z, b.a, b.b, b.c, rs, nullptr, &stop);
        wrong += !(p.a == want[1 + k % 2].a && p.b == want[1 + k % 2].b && p.c == want[1 + k % 2].c);
      } catch (const preempted&) {
        ++stopped;
      }
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(k));
    stop = true;
    ta.join(), tb.join();
  }
  EXPECT_EQ(wrong, 0);
  EXPECT_GT(stopped, 0);
  /* and after them, both lanes still right */
  std::thread ta(lane, 0, 1), tb(lane, 1, 1);
  ta.join(), tb.join();
  EXPECT_EQ(wrong, 0);
}

}  // namespace
}  // namespace cuzk::groth16
