// Pairing micro-benchmarks on both curves: Fp12 arithmetic, Miller loop,
// final exponentiation, full pairing and a 4-term multi-pairing (single
// thread). BLS12-381's keep their names (BM_Pairing, …); BN254's carry a
// bn254_ prefix.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "curves/bn254.hpp"
#include "ff/fp12_cyclotomic.hpp"
#include "pairing/pairing.hpp"

namespace {

using cuzk::curves::bls12_381;
using cuzk::curves::bn254;

template <class C>
const auto& g1() {
  return cuzk::ec::g1_group<C>::generator();
}
template <class C>
const auto& g2() {
  return cuzk::ec::g2_group<C>::generator();
}
template <class C>
cuzk::ff::fp12<C> some_fp12() {
  return cuzk::pairing::miller_loop(g1<C>(), g2<C>());
}

template <class C>
void BM_Fp12Mul(benchmark::State& state) {
  auto a = some_fp12<C>(), b = a.sqr();
  for (auto _ : state) {
    a = a * b;
    benchmark::DoNotOptimize(a);
  }
}

template <class C>
void BM_Fp12Sqr(benchmark::State& state) {
  auto a = some_fp12<C>();
  for (auto _ : state) {
    a = a.sqr();
    benchmark::DoNotOptimize(a);
  }
}

template <class C>
void BM_Fp12CyclotomicSqr(benchmark::State& state) {
  auto a = cuzk::pairing::final_exponentiation(some_fp12<C>());
  for (auto _ : state) {
    a = cuzk::ff::cyclotomic_sqr(a);
    benchmark::DoNotOptimize(a);
  }
}

template <class C>
void BM_Fp12Inverse(benchmark::State& state) {
  auto a = some_fp12<C>();
  for (auto _ : state) {
    a = a.inverse();
    benchmark::DoNotOptimize(a);
  }
}

template <class C>
void BM_MillerLoop(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(cuzk::pairing::miller_loop(g1<C>(), g2<C>()));
}

template <class C>
void BM_FinalExponentiation(benchmark::State& state) {
  auto f = some_fp12<C>();
  for (auto _ : state) benchmark::DoNotOptimize(cuzk::pairing::final_exponentiation(f));
}

template <class C>
void BM_Pairing(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(cuzk::pairing::pairing(g1<C>(), g2<C>()));
}

/* a Groth16 verification: a product of 4 pairings with one final exponentiation */
template <class C>
void BM_MultiPairing4(benchmark::State& state) {
  std::vector<cuzk::pairing::g1_g2_pair_of<C>> pairs(4, {g1<C>(), g2<C>()});
  for (auto _ : state) benchmark::DoNotOptimize(cuzk::pairing::multi_pairing<C>(pairs));
}

template <class C>
void register_all(const std::string& prefix) {
  auto reg = [&](const char* name, void (*f)(benchmark::State&)) {
    return benchmark::RegisterBenchmark((prefix + name).c_str(), f);
  };
  reg("BM_Fp12Mul", BM_Fp12Mul<C>);
  reg("BM_Fp12Sqr", BM_Fp12Sqr<C>);
  reg("BM_Fp12CyclotomicSqr", BM_Fp12CyclotomicSqr<C>);
  reg("BM_Fp12Inverse", BM_Fp12Inverse<C>);
  reg("BM_MillerLoop", BM_MillerLoop<C>)->Unit(benchmark::kMicrosecond);
  reg("BM_FinalExponentiation", BM_FinalExponentiation<C>)->Unit(benchmark::kMicrosecond);
  reg("BM_Pairing", BM_Pairing<C>)->Unit(benchmark::kMicrosecond);
  reg("BM_MultiPairing4", BM_MultiPairing4<C>)->Unit(benchmark::kMicrosecond);
}

const bool registered = (register_all<bls12_381>(""), register_all<bn254>("bn254_"), true);

}  // namespace
