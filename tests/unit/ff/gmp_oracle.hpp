// GMP as the field oracle. A field element is read through its Montgomery
// limbs only (value = l R^-1 mod p), so the oracle never relies on the
// library's own conversions, which are themselves under test.
#pragma once

#include <gmpxx.h>
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "curves/bls12_381.hpp"
#include "curves/bn254.hpp"
#include "ff/fp.hpp"
#include "ff/fr.hpp"
#include "curves_under_test.hpp"
#include "seed.hpp"

namespace cuzk::test {

inline constexpr int kRandomCases = 10000;

template <std::size_t N>
mpz_class to_mpz(const std::array<std::uint64_t, N>& l) {
  mpz_class z;
  mpz_import(z.get_mpz_t(), N, -1, sizeof(std::uint64_t), 0, 0, l.data());
  return z;
}

/* z must satisfy 0 <= z < 2^(64N) */
template <std::size_t N>
std::array<std::uint64_t, N> to_limbs(const mpz_class& z) {
  std::array<std::uint64_t, N> l{};
  mpz_export(l.data(), nullptr, -1, sizeof(std::uint64_t), 0, 0, z.get_mpz_t());
  return l;
}

/* z mod m in [0, m), also for negative z */
inline mpz_class mod(const mpz_class& z, const mpz_class& m) {
  mpz_class r;
  mpz_mod(r.get_mpz_t(), z.get_mpz_t(), m.get_mpz_t());
  return r;
}

inline mpz_class pow2(unsigned k) {
  mpz_class r;
  mpz_ui_pow_ui(r.get_mpz_t(), 2, k);
  return r;
}

inline std::string hex(const mpz_class& z) { return "0x" + z.get_str(16); }

template <class F>
struct gmp_field {
  static constexpr std::size_t N = F::n_limbs;

  static const mpz_class& p() {
    static const mpz_class v = to_mpz(F::params::modulus);
    return v;
  }
  /* R = 2^(64N) mod p */
  static const mpz_class& r() {
    static const mpz_class v = mod(pow2(64 * N), p());
    return v;
  }
  static const mpz_class& r_inv() {
    static const mpz_class v = [] {
      mpz_class i;
      mpz_invert(i.get_mpz_t(), r().get_mpz_t(), p().get_mpz_t());
      return i;
    }();
    return v;
  }

  static mpz_class reduce(const mpz_class& z) { return mod(z, p()); }
  /* x = l R^-1 mod p */
  static mpz_class value(const F& x) { return reduce(to_mpz(x.l) * r_inv()); }
  /* l = z R mod p */
  static F element(const mpz_class& z) { return F::from_montgomery(to_limbs<N>(reduce(z * r()))); }

  /* uniform in [0, p), by rejection on bit-length-masked limbs */
  static mpz_class random(std::mt19937_64& g) {
    for (;;) {
      std::array<std::uint64_t, N> l;
      for (auto& w : l) w = g();
      if (F::bits % 64) l[N - 1] &= (std::uint64_t(1) << (F::bits % 64)) - 1;
      mpz_class z = to_mpz(l);
      if (z < p()) return z;
    }
  }

  /* 0, 1, 2, p-1, p-2, (p-+1)/2, 2^k and 2^k +- 1 at limb and half-limb
     boundaries, R, R^-1, R^2, and the 2-power roots of unity. */
  static std::vector<mpz_class> edge_values() {
    std::vector<mpz_class> v = {
        0, 1, 2, 3, p() - 1, p() - 2, (p() - 1) / 2, (p() + 1) / 2, r(), r_inv(), reduce(r() * r())};
    for (unsigned k = 31; k < F::bits; k += 32)
      for (unsigned b : {k, k + 1})
        for (int d : {-1, 0, 1}) v.push_back(reduce(pow2(b) + d));
    mpz_class w = value(F::from_montgomery(F::params::root_of_unity));
    for (unsigned j = 0; j < F::params::two_adicity; ++j, w = reduce(w * w)) v.push_back(w);
    return v;
  }

  /* got is the Montgomery form of want, and fully reduced */
  static ::testing::AssertionResult agrees(const F& got, const mpz_class& want) {
    auto expected = to_limbs<N>(reduce(want * r()));
    if (got.l == expected) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "got " << hex(value(got)) << " (Montgomery limbs " << hex(to_mpz(got.l))
                                         << "), want " << hex(reduce(want));
  }
};

/* The four prime fields: BLS12-381's (Fp, Fr) and BN254's (Bn254Fp, Bn254Fr). */
using bn254_fp = ff::fp<curves::bn254>;
using bn254_fr = ff::fr<curves::bn254>;
using prime_fields = ::testing::Types<ff::fp_t, ff::fr_t, bn254_fp, bn254_fr>;
struct field_names {
  template <class F>
  static std::string GetName(int) {
    if constexpr (std::is_same_v<F, ff::fp_t>)
      return "Fp";
    else if constexpr (std::is_same_v<F, ff::fr_t>)
      return "Fr";
    else if constexpr (std::is_same_v<F, bn254_fp>)
      return "Bn254Fp";
    else if constexpr (std::is_same_v<F, bn254_fr>)
      return "Bn254Fr";
    else
      static_assert(sizeof(F) == 0, "a field without a name");
  }
};

/* A generator salted by the running test's name, so each test draws its own inputs. */
inline std::mt19937_64 test_rng() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return rng(std::hash<std::string>{}(std::string(info->test_suite_name()) + "." + info->name()));
}

}  // namespace cuzk::test
