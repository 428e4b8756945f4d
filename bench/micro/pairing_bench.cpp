// Pairing micro-benchmarks: Fp12 arithmetic, Miller loop, final
// exponentiation, full pairing and a 4-term multi-pairing (single thread).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <string_view>
#include <vector>

#include "ff/fp12_cyclotomic.hpp"
#include "pairing/pairing.hpp"

namespace {

using cuzk::ff::fp12_t;
using cuzk::ff::fp_t;

fp_t fp_hex(std::string_view h) {
  cuzk::ff::fp_params::limbs_t l{};
  std::size_t bit = 0;
  for (std::size_t i = h.size(); i-- > 0; bit += 4)
    l[bit / 64] |= std::uint64_t(h[i] <= '9' ? h[i] - '0' : h[i] - 'a' + 10) << (bit % 64);
  return *fp_t::from_canonical(l);
}

/* the standard generators (draft-irtf-cfrg-pairing-friendly-curves 4.2.1) */
const cuzk::ec::g1_affine_t g1{
    fp_hex("17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb"),
    fp_hex("08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1"),
    false};
const cuzk::ec::g2_affine_t g2{
    {fp_hex("024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8"),
     fp_hex("13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e")},
    {fp_hex("0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801"),
     fp_hex("0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be")},
    false};

fp12_t some_fp12() { return cuzk::pairing::miller_loop(g1, g2); }

void BM_Fp12Mul(benchmark::State& state) {
  fp12_t a = some_fp12(), b = a.sqr();
  for (auto _ : state) {
    a = a * b;
    benchmark::DoNotOptimize(a);
  }
}
BENCHMARK(BM_Fp12Mul);

void BM_Fp12Sqr(benchmark::State& state) {
  fp12_t a = some_fp12();
  for (auto _ : state) {
    a = a.sqr();
    benchmark::DoNotOptimize(a);
  }
}
BENCHMARK(BM_Fp12Sqr);

void BM_Fp12CyclotomicSqr(benchmark::State& state) {
  fp12_t a = cuzk::pairing::final_exponentiation(some_fp12());
  for (auto _ : state) {
    a = cuzk::ff::cyclotomic_sqr(a);
    benchmark::DoNotOptimize(a);
  }
}
BENCHMARK(BM_Fp12CyclotomicSqr);

void BM_Fp12Inverse(benchmark::State& state) {
  fp12_t a = some_fp12();
  for (auto _ : state) {
    a = a.inverse();
    benchmark::DoNotOptimize(a);
  }
}
BENCHMARK(BM_Fp12Inverse);

void BM_MillerLoop(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(cuzk::pairing::miller_loop(g1, g2));
}
BENCHMARK(BM_MillerLoop)->Unit(benchmark::kMicrosecond);

void BM_FinalExponentiation(benchmark::State& state) {
  fp12_t f = some_fp12();
  for (auto _ : state) benchmark::DoNotOptimize(cuzk::pairing::final_exponentiation(f));
}
BENCHMARK(BM_FinalExponentiation)->Unit(benchmark::kMicrosecond);

void BM_Pairing(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(cuzk::pairing::pairing(g1, g2));
}
BENCHMARK(BM_Pairing)->Unit(benchmark::kMicrosecond);

/* a Groth16 verification: a product of 4 pairings with one final exponentiation */
void BM_MultiPairing4(benchmark::State& state) {
  std::vector<cuzk::pairing::g1_g2_pair> pairs(4, {g1, g2});
  for (auto _ : state) benchmark::DoNotOptimize(cuzk::pairing::multi_pairing(pairs));
}
BENCHMARK(BM_MultiPairing4)->Unit(benchmark::kMicrosecond);

}  // namespace
