#include "cuda/ntt/powers.hpp"
#include "curves/dispatch.hpp"

namespace cuzk::cuda::ntt::detail {

template <class C>
power_tables<C>::power_tables(unsigned log_n, const fr& g, const fr& c) : lo_bits((log_n + 1) / 2) {
  lo.resize(std::size_t{1} << lo_bits);
  hi.resize(std::size_t{1} << (log_n - lo_bits));
  fr_step(lo, fr::one(), g);
  fr step = g;  // g^(2^lo_bits)
  for (unsigned i = 0; i < lo_bits; ++i) step = step.sqr();
  fr_step(hi, c, step);
}

template <class C>
void power_tables<C>::fr_step(std::vector<fr>& v, fr x, const fr& step) {
  for (auto& e : v) {
    e = x;
    x *= step;
  }
}

template <class C>
factor_fn power_tables<C>::at(const void* lo_table, const void* hi_table) const {
  factor_fn f;
  f.lo = lo_table;
  f.hi = hi_table;
  f.lo_bits = lo_bits;
  return f;
}

#define CUZK_INSTANTIATE(C) template struct power_tables<C>;
CUZK_CURVES(CUZK_INSTANTIATE)
#undef CUZK_INSTANTIATE

}  // namespace cuzk::cuda::ntt::detail
