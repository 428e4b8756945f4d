#include "cuda/ntt/powers.hpp"

#include <cstring>

namespace cuzk::cuda::ntt::detail {

power_tables::power_tables(unsigned log_n, const ff::fr_t& g, const ff::fr_t& c) : lo_bits((log_n + 1) / 2) {
  lo.resize(std::size_t{1} << lo_bits);
  hi.resize(std::size_t{1} << (log_n - lo_bits));
  fr_step(lo, ff::fr_t::one(), g);
  ff::fr_t step = g;  // g^(2^lo_bits)
  for (unsigned i = 0; i < lo_bits; ++i) step = step.sqr();
  fr_step(hi, c, step);
}

void power_tables::fr_step(std::vector<ff::fr_t>& v, ff::fr_t x, const ff::fr_t& step) {
  for (auto& e : v) {
    e = x;
    x *= step;
  }
}

factor_fn power_tables::at(const void* lo_table, const void* hi_table) const {
  factor_fn f;
  f.lo = lo_table;
  f.hi = hi_table;
  f.lo_bits = lo_bits;
  return f;
}

factor_fn constant(const ff::fr_t& c) {
  static_assert(sizeof(ff::fr_t) == sizeof(factor_fn{}.c));
  factor_fn f;
  std::memcpy(f.c, &c, sizeof f.c);
  return f;
}

}  // namespace cuzk::cuda::ntt::detail
