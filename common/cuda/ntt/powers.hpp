// c g^j for j < 2^log_n as two tables, lo[j mod 2^h] hi[j >> h], h = ceil(log_n / 2):
// the coset and scaling factors of the NTT passes (one product per element)
// and the seed of the device twiddle table.
#pragma once

#include <vector>

#include "cuda/ntt/plan.hpp"
#include "ff/fr.hpp"

namespace cuzk::cuda::ntt::detail {

struct power_tables {
  std::vector<ff::fr_t> lo;  // g^i, i < 2^lo_bits
  std::vector<ff::fr_t> hi;  // c g^(i 2^lo_bits), i < 2^(log_n - lo_bits)
  unsigned lo_bits;

  power_tables(unsigned log_n, const ff::fr_t& g, const ff::fr_t& c);
  /* the factor_fn reading these tables where they lie (host or device copies) */
  factor_fn at(const void* lo_table, const void* hi_table) const;

 private:
  /* v_i = x step^i */
  static void fr_step(std::vector<ff::fr_t>& v, ff::fr_t x, const ff::fr_t& step);
};

/* the constant c as a factor_fn */
factor_fn constant(const ff::fr_t& c);

}  // namespace cuzk::cuda::ntt::detail
