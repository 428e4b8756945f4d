// A whole proof on the GPU against the CPU engine, same machine, same run
// (issue 9), on either curve (prove/CURVE/CIRCUIT/LOG/ENGINE): chain
// (full-width witness) and sha256 (boolean-heavy) at 2^20, 2^22 and 2^24
// constraints. The key is resident (uploaded by a warm-up proof), a/b/c and z
// come from pinned host memory. The witness comes from a real synthesis on the
// curve at up to 2^20 constraints, repeated to fill larger domains (the MSMs
// see the same mix of 0, 1 and full-width scalars); the bases are random
// points of the groups, repeated likewise. The proofs do not verify (no setup
// at 2^24: hours on the CPU), which changes no arithmetic done. ENGINE: cuda,
// cuda-overlap (the five MSMs on five streams), cuda-shifted (the key's MSM
// bases with shifted copies, as many as fit: context_options::msm_copies) or cpu.
#include <benchmark/benchmark.h>

#include <cuda_runtime_api.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "circuits/registry.hpp"
#include "cuda/device.hpp"
#include "cuda/engine/engine.hpp"
#include "cuda/error.hpp"
#include "ec/batch_affine.hpp"
#include "ec/scalar_mul.hpp"
#include "groth16/engine.hpp"
#include "groth16/native.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup.hpp"

namespace {

using namespace cuzk;
using bls = curves::bls12_381;
using bn = curves::bn254;

template <class T>
struct pinned {
  T* p = nullptr;
  std::size_t n = 0;
  explicit pinned(std::size_t count) : n(count) {
    CUZK_CUDA_OK(cudaHostAlloc((void**)&p, n * sizeof(T), cudaHostAllocPortable));
  }
  ~pinned() { cudaFreeHost(p); }
  std::span<T> span() { return {p, n}; }
};

/* G: ec::g1_group<C> or ec::g2_group<C> */
template <class G>
std::vector<typename ec::jacobian<G>::affine_t> random_points(std::size_t count, std::mt19937_64& rng) {
  std::vector<ec::jacobian<G>> jac(count);
  const auto g = ec::jacobian<G>::from_affine(G::generator());
  for (auto& p : jac) p = ec::mul(g, ff::fr<typename G::curve>::random(rng));
  return ec::batch_to_affine<G>(jac);
}

template <class T>
std::vector<T> tiled(const std::vector<T>& base, std::size_t n) {
  std::vector<T> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = base[i % base.size()];
  return v;
}

/* One workload: a key of random bases with the circuit's sizes, and its witness and evaluations pinned. */
template <class C>
struct workload {
  groth16::basic_proving_key<C> pk;
  std::unique_ptr<pinned<ff::fr<C>>> a, b, c, z;
};

template <class C>
const workload<C>& get(const std::string& circuit, unsigned log_n) {
  static std::map<std::pair<std::string, unsigned>, std::unique_ptr<workload<C>>> cache;
  auto& w = cache[{circuit, log_n}];
  if (w) return *w;
  const unsigned base_log = std::min(log_n, 20u);
  const std::string spec = circuit == "chain"
                               ? "chain:size=" + std::to_string((1u << base_log) - 16)
                               : "sha256:blocks=" + std::to_string(std::max(1u, (1u << base_log) / 28000));
  auto c = circuits::make_circuit<C>(spec);
  const auto counts = c->count();
  groth16::basic_proving_key<C> small;
  small.n_vars = std::uint32_t(counts.inputs + counts.aux);
  small.n_public = std::uint32_t(counts.inputs - 1);
  small.domain_size = groth16::domain_size_for(counts.constraints, small.n_public);
  groth16::basic_prover_buffers<C> buf(small);
  auto in = c->parse_inputs(c->random_inputs(7));
  groth16::synthesize_into<C>(small, *c, *in, buf);

  const std::size_t reps = (std::size_t{1} << log_n) / small.domain_size;
  w = std::make_unique<workload<C>>();
  auto& pk = w->pk;
  pk.n_public = small.n_public;
  pk.n_vars = std::uint32_t(small.n_vars * reps);
  pk.domain_size = std::uint32_t(small.domain_size * reps);
  pk.h = groth16::h_form::odd_coset;
  std::mt19937_64 rng(11);
  auto g1 = random_points<ec::g1_group<C>>(4096, rng);
  auto g2 = random_points<ec::g2_group<C>>(1024, rng);
  pk.alpha1 = pk.beta1 = pk.delta1 = g1[0];
  pk.beta2 = pk.gamma2 = pk.delta2 = g2[0];
  pk.ic = tiled(g1, pk.n_public + 1);
  pk.a = tiled(g1, pk.n_vars);
  pk.b1 = tiled(g1, pk.n_vars);
  pk.b2 = tiled(g2, pk.n_vars);
  pk.c = tiled(g1, pk.n_vars - pk.n_public - 1);
  pk.h_query = tiled(g1, pk.domain_size);
  auto fill = [&](std::unique_ptr<pinned<ff::fr<C>>>& dst, const std::vector<ff::fr<C>>& values, std::size_t n) {
    dst = std::make_unique<pinned<ff::fr<C>>>(n);
    for (std::size_t i = 0; i < n; ++i) dst->p[i] = values[i % values.size()];
  };
  fill(w->a, buf.a, pk.domain_size);
  fill(w->b, buf.b, pk.domain_size);
  fill(w->c, buf.c, pk.domain_size);
  fill(w->z, buf.z, pk.n_vars);
  w->z->p[0] = ff::fr<C>::one();
  return *w;
}

template <class C>
std::unique_ptr<groth16::basic_engine<C>> engine(bool gpu, bool overlap, bool shifted) {
  if (gpu) return cuda::make_engine<C>({.device = 0, .overlap_msms = overlap, .msm_copies = shifted ? -1 : 0});
  return groth16::make_cpu_engine<C>();
}

template <class C>
void prove_bench(benchmark::State& st, const std::string& circuit, unsigned log_n, bool gpu, bool overlap,
                 bool shifted) {
  if (gpu && cuda::device_count() == 0) {
    st.SkipWithError("no CUDA device");
    return;
  }
  const workload<C>& w = get<C>(circuit, log_n);
  auto eng = engine<C>(gpu, overlap, shifted);
  const groth16::basic_blinding<C> rs{ff::fr<C>::from_u64(1), ff::fr<C>::from_u64(2)};
  auto run = [&](groth16::prove_timings& tm) {
    return groth16::prove<C>(*eng, w.pk, w.z->span(), w.a->span(), w.b->span(), w.c->span(), rs, &tm);
  };
  groth16::prove_timings tm;
  if (gpu) run(tm);  // uploads the key: resident from here on
  groth16::prove_timings sum;
  for (auto _ : st) {
    run(tm);
    st.SetIterationTime(tm.total);
    sum.h2d += tm.h2d;
    sum.ntt += tm.ntt;
    sum.msm += tm.msm;
    sum.split += tm.split;
    sum.msm_h += tm.msm_h;
    sum.msm_b_g2 += tm.msm_b_g2;
  }
  const double it = double(st.iterations());
  st.counters["h2d_ms"] = 1e3 * sum.h2d / it;
  st.counters["ntt_ms"] = 1e3 * sum.ntt / it;
  st.counters["msm_ms"] = 1e3 * sum.msm / it;
  st.counters["split_ms"] = 1e3 * sum.split / it;
  st.counters["msm_h_ms"] = 1e3 * sum.msm_h / it;
  st.counters["msm_g2_ms"] = 1e3 * sum.msm_b_g2 / it;
}

void register_all() {
  for (const char* curve : {"bls12_381", "bn254"})
    for (const char* circuit : {"chain", "sha256"})
      for (unsigned log_n : {20u, 22u, 24u})
        for (const char* engine : {"cuda", "cuda-overlap", "cuda-shifted", "cpu"}) {
          const bool gpu = engine[0] == 'c' && engine[1] == 'u', overlap = std::string(engine) == "cuda-overlap";
          const bool shifted = std::string(engine) == "cuda-shifted";
          const bool bn254 = curve[0] == 'b' && curve[1] == 'n';
          const std::string name =
              std::string("prove/") + curve + "/" + circuit + "/" + std::to_string(log_n) + "/" + engine;
          auto* b = benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& st) {
            if (bn254)
              prove_bench<bn>(st, circuit, log_n, gpu, overlap, shifted);
            else
              prove_bench<bls>(st, circuit, log_n, gpu, overlap, shifted);
          });
          b->UseManualTime()->Unit(benchmark::kMillisecond);
          if (!gpu || log_n >= 24) b->Iterations(gpu ? 5 : 1);
        }
}

const int registered = (register_all(), 0);

}  // namespace
