// Inputs for the device-field tests: random elements of cuzk::ff's fields and
// the edges of their Montgomery representation (0, 1, m - 1, values near
// 2^(bits-1) and with long runs of ones), and the field pairs (CPU, device)
// of both curves for the typed tests.
#pragma once

#include <bit>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "cuda/ff/fp.cuh"
#include "cuda/ff/fp2.cuh"
#include "cuda/ff/fr.cuh"
#include "curves_under_test.hpp"
#include "ff/fp.hpp"
#include "ff/fp2.hpp"
#include "ff/fr.hpp"

namespace cuzk::test {

template <class C>
struct fr_types {
  using curve = C;
  using cpu = ff::fr<C>;
  using gpu = cuda::fr<C>;
  static constexpr const char* name = "Fr";
};
template <class C>
struct fp_types {
  using curve = C;
  using cpu = ff::fp<C>;
  using gpu = cuda::fp<C>;
  static constexpr const char* name = "Fp";
};
using field_types = ::testing::Types<fr_types<curves::bls12_381>, fp_types<curves::bls12_381>, fr_types<curves::bn254>,
                                     fp_types<curves::bn254>>;
/* Bls12_381_Fr, ..., Bn254_Fp */
struct field_names {
  template <class T>
  static std::string GetName(int) {
    return std::string(curve_name<typename T::curve>) + "_" + T::name;
  }
};

/* The same bytes on both sides (the static_asserts of cuda/ff/fr.cuh, fp.cuh, fp2.cuh). */
template <class To, class From>
To same_bytes(const From& f) {
  return std::bit_cast<To>(f);
}

/* Raw Montgomery limbs at the edges, all below m. */
template <class F>
std::vector<F> field_edges() {
  using limbs_t = typename F::limbs_t;
  constexpr std::size_t N = F::n_limbs;
  const limbs_t m = F::params::modulus;
  std::vector<limbs_t> raw;
  auto minus = [&](std::uint64_t k) {
    limbs_t r = m, kk{};
    kk[0] = k;
    ff::limbs::sub(r, m, kk);
    return r;
  };
  raw.push_back({});
  for (std::uint64_t k : {1ull, 2ull, 3ull, 0xffffffffull, 0x100000000ull, ~0ull}) raw.push_back(limbs_t{k});
  for (std::uint64_t k : {1ull, 2ull, 3ull, 0xffffffffull}) raw.push_back(minus(k));
  limbs_t half = m;  // (m - 1) / 2 and (m + 1) / 2
  ff::limbs::shr1(half);
  raw.push_back(half);
  limbs_t half1 = half, one{1};
  ff::limbs::add(half1, half, one);
  raw.push_back(half1);
  limbs_t top{}, below_top{};  // 2^(bits-1), 2^(bits-1) - 1
  top[(F::bits - 1) / 64] = std::uint64_t(1) << ((F::bits - 1) % 64);
  ff::limbs::sub(below_top, top, one);
  raw.push_back(top);
  raw.push_back(below_top);
  limbs_t ones = m;  // every word but the top one all ones, the top one below m's
  for (std::size_t i = 0; i + 1 < N; ++i) ones[i] = ~0ull;
  ones[N - 1] = m[N - 1] - 1;
  raw.push_back(ones);
  for (std::size_t i = 0; i < N; ++i) {  // one 32-bit word of ones at each position
    limbs_t w{};
    w[i] = i + 1 < N ? 0xffffffffull : 0xffffffffull & (m[i] - 1);
    raw.push_back(w);
    w[i] <<= 32;
    if (ff::limbs::less(w, m)) raw.push_back(w);
  }
  raw.push_back(F::params::r1);
  raw.push_back(F::params::r2);
  std::vector<F> out;
  for (const auto& r : raw) out.push_back(F::from_montgomery(r));
  return out;
}

/* edges, then random elements up to n in all */
template <class F>
std::vector<F> field_inputs(std::size_t n, std::mt19937_64& rng) {
  std::vector<F> v = field_edges<F>();
  while (v.size() < n) v.push_back(F::random(rng));
  return v;
}

/* every edge against every edge, then random pairs: two vectors of the same length */
template <class F>
std::pair<std::vector<F>, std::vector<F>> field_pairs(std::size_t n, std::mt19937_64& rng) {
  const std::vector<F> e = field_edges<F>();
  std::pair<std::vector<F>, std::vector<F>> p;
  for (const F& a : e)
    for (const F& b : e) {
      p.first.push_back(a);
      p.second.push_back(b);
    }
  while (p.first.size() < n) {
    p.first.push_back(F::random(rng));
    p.second.push_back(F::random(rng));
  }
  return p;
}

}  // namespace cuzk::test
