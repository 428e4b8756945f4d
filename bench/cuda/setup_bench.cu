// The setup's fixed-base multiplications k_i G (cuda/setup/fixed_base_engine):
// G1 and G2 products per second at 2^20 random scalars, as setup() sees them
// (scalars from host memory, affine points back in host memory, the table
// already uploaded), and the CPU engine on the same machine for the ratio.
#include <benchmark/benchmark.h>

#ifdef CUZK_CUDA_SETUP

#include <memory>
#include <random>
#include <vector>

#include "cuda/device.hpp"
#include "cuda/setup/fixed_base_engine.hpp"
#include "groth16/fixed_base_engine.hpp"

namespace {

using namespace cuzk;

std::vector<ec::fr_t> random_scalars(std::size_t n) {
  std::mt19937_64 rng(n);
  std::vector<ec::fr_t> k(n);
  for (auto& x : k) x = ec::fr_t::random(rng);
  return k;
}

template <class A, class Mul>
void run(benchmark::State& st, bool gpu, Mul mul) {
  if (gpu && cuda::device_count() == 0) {
    st.SkipWithError("no CUDA device");
    return;
  }
  const std::size_t n = std::size_t(st.range(0));
  const auto k = random_scalars(n);
  std::vector<A> out(n);
  std::unique_ptr<groth16::basic_fixed_base_engine<curves::bls12_381>> e;
  if (gpu)
    e = cuda::make_fixed_base_engine();
  else
    e = std::make_unique<groth16::basic_cpu_fixed_base_engine<curves::bls12_381>>();
  mul(*e, std::span<const ec::fr_t>(k).first(1), std::span<A>(out).first(1)); /* table built and uploaded */
  for (auto _ : st) mul(*e, k, out);
  st.SetItemsProcessed(std::int64_t(st.iterations()) * std::int64_t(n));
  st.SetLabel(e->name());
}

void g1(groth16::basic_fixed_base_engine<curves::bls12_381>& e, std::span<const ec::fr_t> k,
        std::span<ec::g1_affine_t> out) {
  e.mul_many_g1(ec::g1_curve::generator(), k, out);
}
void g2(groth16::basic_fixed_base_engine<curves::bls12_381>& e, std::span<const ec::fr_t> k,
        std::span<ec::g2_affine_t> out) {
  e.mul_many_g2(ec::g2_curve::generator(), k, out);
}

void BM_fixed_base_g1_cuda(benchmark::State& st) { run<ec::g1_affine_t>(st, true, g1); }
void BM_fixed_base_g2_cuda(benchmark::State& st) { run<ec::g2_affine_t>(st, true, g2); }
void BM_fixed_base_g1_cpu(benchmark::State& st) { run<ec::g1_affine_t>(st, false, g1); }
void BM_fixed_base_g2_cpu(benchmark::State& st) { run<ec::g2_affine_t>(st, false, g2); }

}  // namespace

BENCHMARK(BM_fixed_base_g1_cuda)->Arg(1 << 20)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_fixed_base_g2_cuda)->Arg(1 << 20)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_fixed_base_g1_cpu)->Arg(1 << 20)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);
BENCHMARK(BM_fixed_base_g2_cpu)->Arg(1 << 20)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

#endif  // CUZK_CUDA_SETUP
