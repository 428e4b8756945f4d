// c g^j for j < 2^log_n as two tables, lo[j mod 2^h] hi[j >> h], h = ceil(log_n / 2):
// the coset and scaling factors of the NTT passes (one product per element)
// and the seed of the device twiddle table. Over the Fr of a curve C
// (instantiated in powers.cpp for BLS12-381 and BN254).
#pragma once

#include <cstring>
#include <vector>

#include "cuda/ntt/plan.hpp"
#include "curves/bls12_381.hpp"
#include "curves/bn254.hpp"
#include "ff/fr.hpp"
#include "curves/dispatch.hpp"

namespace cuzk::cuda::ntt::detail {

template <class C>
struct power_tables {
  using fr = ff::fr<C>;
  std::vector<fr> lo;  // g^i, i < 2^lo_bits
  std::vector<fr> hi;  // c g^(i 2^lo_bits), i < 2^(log_n - lo_bits)
  unsigned lo_bits;

  power_tables(unsigned log_n, const fr& g, const fr& c);
  /* the factor_fn reading these tables where they lie (host or device copies) */
  factor_fn at(const void* lo_table, const void* hi_table) const;

 private:
  /* v_i = x step^i */
  static void fr_step(std::vector<fr>& v, fr x, const fr& step);
};

/* the constant c (an ff::fr<C>) as a factor_fn */
template <class F>
factor_fn constant(const F& c) {
  static_assert(sizeof(F) == sizeof(factor_fn{}.c));
  factor_fn f;
  std::memcpy(f.c, &c, sizeof f.c);
  return f;
}

#define CUZK_INSTANTIATE(C) extern template struct power_tables<C>;
CUZK_CURVES(CUZK_INSTANTIATE)
#undef CUZK_INSTANTIATE

}  // namespace cuzk::cuda::ntt::detail
